import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startExampleServer } from './server.js';

test("the example server answers a browser's /favicon.ico with its icon, cached, not a 404", async () => {
  const server = await startExampleServer();
  try {
    const response = await fetch(`${server.url}/favicon.ico`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/svg+xml');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=86400');
    assert.match(await response.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  } finally {
    await server.close();
  }
});
