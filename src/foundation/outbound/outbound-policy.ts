import type { OutboundRequest, ThirdPartyResponse } from '../../core/index.js';
import { SsogateError } from '../../core/index.js';

export type SendOutbound = (request: OutboundRequest) => Promise<ThirdPartyResponse>;

const loopbackHosts = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * Codes and tokens must not cross a network in clear text (RFC 9700 §2.6):
 * plain http is allowed only to this machine, unless the operator sets the
 * loud SSOGATE_ALLOW_INSECURE_HTTP switch.
 */
export function withTransportPolicy(send: SendOutbound, allowInsecureHttp: boolean): SendOutbound {
  return async (request) => {
    const url = new URL(request.url);
    if (url.protocol === 'http:' && !allowInsecureHttp && !loopbackHosts.test(url.hostname)) {
      throw new SsogateError(
        'outbound_network',
        `refused to call ${url.host} over plain http; use https, or set SSOGATE_ALLOW_INSECURE_HTTP=true`,
      );
    }
    return send(request);
  };
}
