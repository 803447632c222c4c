#!/usr/bin/env node
/**
 * `npm run demo`: the gateway in front of the bundled example OAuth2 server
 * (run-demo.ts). The only static import: an older Node.js is told which
 * versions to use, before the SQLite addon could crash it without a word
 * (app/node-support.ts).
 */
import { exitUnlessNodeSupported } from '../app/node-support.js';

exitUnlessNodeSupported();
await import('./run-demo.js');
