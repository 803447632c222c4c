// The example extension and the emulated Acme server it was written for.
export { startExtension } from './extension.mjs';
export { defaultAcmeClient, defaultAcmeUsers, startAcmeServer } from './acme-server.mjs';
