export type { SendOptions } from './send-outbound.js';
export { sendOutbound } from './send-outbound.js';
