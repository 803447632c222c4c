import type { CompiledCall } from '../entry/compiled-entry.js';
import type { PlaceholderValues } from '../template/index.js';
import { renderHeaderValue, renderPostParameters, renderUrl } from '../template/index.js';
import { appendQuery } from './append-query.js';
import type { OutboundRequest } from './outbound-request.js';
import { maxResponseBytes } from './outbound-request.js';

interface CallRequestOptions {
  readonly values: PlaceholderValues;
  /** Parameters the gateway adds itself (the PKCE code_verifier). */
  readonly extraParameters?: ReadonlyArray<readonly [string, string]>;
  /** Headers the gateway adds itself (HTTP Basic client authentication). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

const contentTypes = {
  // A `POST ` call's JSON body has this exact type (docs/entries.md#request-shapes).
  json: 'application/json;charset=utf-8',
  form: 'application/x-www-form-urlencoded',
} as const;

/**
 * Shapes a token or user-info call (docs/entries.md#request-shapes). GET keeps the query in the URL;
 * `POST ` moves the template's query parameters, decoded, into a JSON object
 * (or a form body) and sends the URL without its query.
 */
export function buildCallRequest(call: CompiledCall, options: CallRequestOptions): OutboundRequest {
  const { values, extraParameters = [], extraHeaders = {}, timeoutMs } = options;
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const header of call.headers) {
    headers[header.name.toLowerCase()] = renderHeaderValue(header, values);
  }
  Object.assign(headers, extraHeaders);

  if (call.template.method === 'GET') {
    const url = appendQuery(renderUrl(call.template, values), extraParameters);
    return { method: 'GET', url, headers, body: undefined, timeoutMs, maxResponseBytes };
  }

  const { url, parameters } = renderPostParameters(call.template, values);
  const allParameters = [...parameters, ...extraParameters];
  headers['content-type'] = contentTypes[call.bodyEncoding];
  const body =
    call.bodyEncoding === 'json'
      ? // Object.fromEntries defines own data properties, so even a parameter
        // named __proto__ is serialised as a plain key.
        JSON.stringify(Object.fromEntries(allParameters))
      : new URLSearchParams(
          allParameters.map(([name, value]): [string, string] => [name, value]),
        ).toString();
  return { method: 'POST', url, headers, body, timeoutMs, maxResponseBytes };
}
