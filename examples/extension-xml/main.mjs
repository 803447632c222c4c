#!/usr/bin/env node
// `npm start` in this folder: the extension, and with ACME_PORT set the
// emulated Acme server too (for trying it without a real Acme).
//   EXTENSION_SECRET   the entry's extensionSecret (required, 16+ characters)
//   EXTENSION_PORT     default 9191;  EXTENSION_HOST  default 127.0.0.1
//   ACME_PORT          start the emulated server on this port as well
import { startAcmeServer, startExtension } from './index.mjs';

const host = process.env.EXTENSION_HOST ?? '127.0.0.1';
const extension = await startExtension({
  host,
  port: Number(process.env.EXTENSION_PORT ?? 9191),
  secret: process.env.EXTENSION_SECRET,
  log: (line) => console.log(line),
});
console.log(`extension listening on ${extension.url}`);
const acme =
  process.env.ACME_PORT === undefined
    ? undefined
    : await startAcmeServer({ host, port: Number(process.env.ACME_PORT) });
if (acme !== undefined) console.log(`emulated Acme server on ${acme.url}`);
const stop = async () => {
  await extension.close();
  await acme?.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
