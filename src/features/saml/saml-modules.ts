import { lazyModule } from '../../foundation/outbound/lazy-module.js';

/**
 * node-saml (over xml-crypto, xml2js and xmlbuilder) and the DOM parser the
 * Response's checks read with: loaded with the first SAML sign-in or
 * metadata request, not with the gateway (some 80 ms of start-up, measured
 * with `import('@node-saml/node-saml')` alone), and once.
 */
export const loadNodeSaml = lazyModule(() => import('@node-saml/node-saml'));
export const loadXmlDom = lazyModule(() => import('@xmldom/xmldom'));
