import { startExampleServer } from './server.js';

/**
 * Runs the example OAuth2 server alone, for trying entries by hand:
 * `node build/src/example-server/main.js [port]`, or EXAMPLE_SERVER_PORT /
 * EXAMPLE_SERVER_HOST. Port 0 picks a free one.
 */
const portText = process.argv[2] ?? process.env.EXAMPLE_SERVER_PORT ?? '9090';
const port = Number(portText);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Not a port: ${portText}`);
  process.exit(2);
}
const server = await startExampleServer({
  host: process.env.EXAMPLE_SERVER_HOST ?? '127.0.0.1',
  port,
});
console.log(`Example OAuth2 server listening on ${server.url}`);
console.log('Users: alice / alice-password, bob / bob-password; client demo-app / demo-secret');

const stop = (): void => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
