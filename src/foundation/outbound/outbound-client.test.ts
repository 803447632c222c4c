import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { Server, Socket } from 'node:net';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { createGateway } from '../../app/create-gateway.js';
import { loadConfig } from '../config/load-config.js';
import type { OutboundRequest, ThirdPartyResponse } from '../../core/index.js';
import { SsogateError } from '../../core/index.js';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import { addressPolicy, parseAllowList } from './address-policy.js';
import { outbound } from './test-support/http-fixture.js';
import type { Lookup } from './outbound-client.js';
import { OutboundClient } from './outbound-client.js';
import { sendOutbound } from './send-outbound.js';

/**
 * A TCP server on loopback that accepts and then never says a word; it counts
 * connections, those open now, and the most it ever held open at once, and
 * the requests each connection carried.
 */
async function silentServer(): Promise<{
  port: number;
  connections: () => number;
  openNow: () => number;
  mostOpenAtOnce: () => number;
  /** How many requests each connection carried, in the order they were accepted. */
  requestsPerConnection: () => number[];
  /**
   * Resolves once every connection made before the call is in and closed
   * again. A listener accepts in order, so once a connection of its own is
   * in, every earlier one is; then it waits for the close of the last one
   * open (a connection's requests are read before its close).
   */
  allClosed: () => Promise<void>;
  server: Server;
}> {
  const received = new Map<Socket, string>();
  let open = 0;
  let mostOpen = 0;
  let onAccepted: ((socket: Socket) => void) | undefined;
  let onAllClosed: (() => void) | undefined;
  const server = createServer((socket) => {
    if (onAccepted !== undefined) {
      onAccepted(socket);
      return;
    }
    received.set(socket, '');
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    socket.on('close', () => {
      open -= 1;
      if (open === 0) onAllClosed?.();
    });
    socket.on('error', () => undefined);
    // Read what comes, so that the gateway closing its end is seen.
    socket.on('data', (bytes: Buffer) => {
      received.set(socket, `${received.get(socket) ?? ''}${bytes.toString('latin1')}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  after(() => {
    for (const socket of received.keys()) socket.destroy();
    server.close();
  });
  const allClosed = async (): Promise<void> => {
    const ownIsIn = new Promise<Socket>((resolve) => (onAccepted = resolve));
    const own = connect(port, '127.0.0.1');
    own.on('error', () => undefined);
    (await ownIsIn).destroy();
    own.destroy();
    onAccepted = undefined;
    if (open > 0) await new Promise<void>((resolve) => (onAllClosed = resolve));
  };
  return {
    port,
    connections: () => received.size,
    openNow: () => open,
    mostOpenAtOnce: () => mostOpen,
    requestsPerConnection: () =>
      [...received.values()].map((bytes) => bytes.split(/ \/token HTTP\/1\.1\r\n/).length - 1),
    allClosed,
    server,
  };
}

/** An HTTP server on loopback that answers 200 "ok" and counts connections. */
async function answeringServer(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => server.close());
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

function allowing(text: string) {
  return addressPolicy(parseAllowList(text, 'SSOGATE_OUTBOUND_ALLOW', []));
}

/** A resolver that knows a few test names; anything else is unknown. */
const testNames: Record<string, { address: string; family: number }[]> = {
  'idp.loopback.test': [{ address: '127.0.0.1', family: 4 }],
  'idp.mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '::ffff:169.254.169.254', family: 6 },
  ],
};
const testLookup: Lookup = (hostname, _options, callback) => {
  const answer = testNames[hostname];
  if (answer === undefined) {
    callback(Object.assign(new Error(`unknown ${hostname}`), { code: 'ENOTFOUND' }), '');
  } else {
    callback(null, answer);
  }
};

function failsWith(code: string) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof SsogateError, String(error));
    assert.equal(error.code, code, error.message);
    return true;
  };
}

/** The gateway's own outbound client, configured as the environment says. */
async function withGatewaySend(
  env: Record<string, string>,
  run: (send: (request: OutboundRequest) => Promise<ThirdPartyResponse>) => Promise<void>,
): Promise<void> {
  await withTestStorage(async (storage) => {
    const config = loadConfig({ SSOGATE_LOG_LEVEL: 'silent', ...env });
    await run(createGateway(config, storage).send);
  });
}

describe('the outbound client: addresses', () => {
  test('a name that resolves to loopback is refused before connecting, unless allowed', async () => {
    const server = await answeringServer();
    const url = `http://idp.loopback.test:${server.port}/token?code=SECRET_CODE`;
    const strict = new OutboundClient({ lookup: testLookup });
    await assert.rejects(strict.send(outbound({ url })), (error: unknown) => {
      failsWith('outbound_address_refused')(error);
      const { message } = error as Error;
      assert.match(message, /idp\.loopback\.test resolves to 127\.0\.0\.1 is loopback/);
      assert.doesNotMatch(message, /SECRET_CODE/);
      return true;
    });
    assert.equal(server.connections(), 0);

    for (const allow of ['idp.loopback.test', '127.0.0.0/8']) {
      const allowed = new OutboundClient({ lookup: testLookup, policy: allowing(allow) });
      const response = await allowed.send(outbound({ url }));
      assert.equal(response.body, 'ok');
      await allowed.close();
    }
    assert.equal(server.connections(), 2);
    await strict.close();
  });

  test('every address of a multi-address answer is judged, an IPv4-mapped one too', async () => {
    const client = new OutboundClient({ lookup: testLookup });
    await assert.rejects(
      client.send(outbound({ url: 'https://idp.mixed.test/token' })),
      (error: unknown) =>
        failsWith('outbound_address_refused')(error) &&
        /::ffff:169\.254\.169\.254 is link-local/.test((error as Error).message),
    );
    await client.close();
  });

  test('the gateway refuses localhost and address literals at call time, with no connection', async () => {
    const server = await answeringServer();
    await withGatewaySend({}, async (send) => {
      for (const host of ['localhost', '127.0.0.1', '0x7f000001', '[::ffff:127.0.0.1]']) {
        await assert.rejects(
          send(outbound({ url: `https://${host}:${server.port}/token` })),
          failsWith('outbound_address_refused'),
        );
      }
    });
    assert.equal(server.connections(), 0);
    await withGatewaySend({ SSOGATE_OUTBOUND_ALLOW: '127.0.0.1,localhost' }, async (send) => {
      assert.equal((await send(outbound({ url: `http://localhost:${server.port}/` }))).body, 'ok');
    });
  });
});

describe('the outbound client: time-outs and connections', () => {
  test('a TLS handshake that never ends fails at the call time-out, not undici’s 10 s', async () => {
    const { port } = await silentServer();
    const url = `https://127.0.0.1:${port}/token`;
    for (const send of [
      (request: OutboundRequest) => sendOutbound(request),
      new OutboundClient({ policy: allowing('127.0.0.1') }).send,
    ]) {
      const started = performance.now();
      await assert.rejects(send(outbound({ url, timeoutMs: 300 })), (error: unknown) => {
        failsWith('outbound_timeout')(error);
        assert.match((error as Error).message, /within 300 ms/);
        return true;
      });
      const elapsed = performance.now() - started;
      // A bound on a hang, not a speed measurement: 5x the deadline, far below 10 s.
      assert.ok(elapsed < 1500, `took ${Math.round(elapsed)} ms`);
    }
  });

  test('at most SSOGATE_OUTBOUND_MAX_CONNECTIONS calls reach a hung server; the rest fail coded', async () => {
    const server = await silentServer();
    await withGatewaySend(
      { SSOGATE_OUTBOUND_ALLOW: '127.0.0.1', SSOGATE_OUTBOUND_MAX_CONNECTIONS: '3' },
      async (send) => {
        const url = `http://127.0.0.1:${server.port}/token`;
        // Three calls hold the slots well past the deadline of the seven after
        // them, with room to spare on a loaded machine.
        const calls = [
          ...Array.from({ length: 3 }, () => send(outbound({ url, timeoutMs: 3000 }))),
          ...Array.from({ length: 7 }, () => send(outbound({ url, timeoutMs: 300 }))),
        ];
        const results = await Promise.allSettled(calls);
        const codes = results.map((result) =>
          result.status === 'rejected' ? (result.reason as SsogateError).code : 'answered',
        );
        assert.deepEqual(codes, [
          ...Array<string>(3).fill('outbound_timeout'),
          ...Array<string>(7).fill('outbound_busy'),
        ]);
        // The cap is on sockets held at once: what a hung server can take.
        assert.ok(
          server.mostOpenAtOnce() <= 3,
          `${server.mostOpenAtOnce()} connections open at once`,
        );
      },
    );
  });

  test('many hung calls leave no socket open once their time-outs fire', async () => {
    const server = await silentServer();
    await withGatewaySend(
      { SSOGATE_OUTBOUND_ALLOW: '127.0.0.1', SSOGATE_OUTBOUND_MAX_CONNECTIONS: '12' },
      async (send) => {
        const url = `http://127.0.0.1:${server.port}/token`;
        for (let round = 0; round < 3; round += 1) {
          const results = await Promise.allSettled(
            Array.from({ length: 12 }, () => send(outbound({ url, timeoutMs: 300 }))),
          );
          for (const result of results) {
            assert.equal(result.status, 'rejected');
            failsWith('outbound_timeout')(result.reason);
          }
        }
        // Counted at the server, once every connection the gateway made is
        // in: each socket it gave up on is closed. Waited for on the
        // server's events (on a busy machine a connection may be accepted
        // after its call has timed out); the 30 s only bounds a failure.
        const outcome = await Promise.race([
          server.allClosed().then(() => 'all closed'),
          delay(30_000, 'waited 30 s', { ref: false }),
        ]);
        assert.equal(outcome, 'all closed', `${server.openNow()} connections still open`);
        // The calls reached the server (on a busy machine a call whose
        // time-out fired before its request was written sends none), each
        // on a socket of its own: none on a socket another call had left hung.
        const carried = server.requestsPerConnection();
        const shown = `requests per connection: ${carried.join(' ')}`;
        assert.ok(carried.includes(1), shown);
        assert.ok(
          carried.every((requests) => requests <= 1),
          shown,
        );
      },
    );
  });
});

describe('the outbound client: SSOGATE_CA_FILE', () => {
  test('trusts a server whose certificate a private CA signed, only with the setting', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-ca-'));
    after(() => rm(dir, { recursive: true, force: true }));
    const ca = issueTestCertificates(dir);
    const server = createHttpsServer({ key: ca.serverKey, cert: ca.serverCert }, (_q, response) => {
      response.end('trusted');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    after(() => server.close());
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
    const allow = { SSOGATE_OUTBOUND_ALLOW: '127.0.0.1' };

    await withGatewaySend(allow, async (send) => {
      await assert.rejects(send(outbound({ url })), failsWith('outbound_network'));
    });
    await withGatewaySend({ ...allow, SSOGATE_CA_FILE: ca.caFile }, async (send) => {
      assert.equal((await send(outbound({ url }))).body, 'trusted');
    });
    // Public servers stay trusted: the file adds to the bundled roots.
    const bundle = await readFile(ca.caFile, 'utf8');
    await writeFile(join(dir, 'two.pem'), `${bundle}\n${bundle}`);
    const config = loadConfig({ SSOGATE_CA_FILE: join(dir, 'two.pem') });
    assert.equal(config.caCertificates?.length, 2);
  });
});

/**
 * A certificate authority and a server certificate for 127.0.0.1 it signed,
 * made with openssl for this test only.
 */
function issueTestCertificates(dir: string): {
  caFile: string;
  serverKey: Buffer;
  serverCert: Buffer;
} {
  const path = (name: string) => join(dir, name);
  // Run in the directory, with its file names: a line of words split on spaces.
  const openssl = (line: string) => execFileSync('openssl', line.split(' '), { cwd: dir });
  const key = '-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes';
  openssl(`req -x509 ${key} -days 1 -subj /CN=ssogate-test-ca -keyout ca.key -out ca.pem`);
  openssl(`req ${key} -subj /CN=127.0.0.1 -keyout server.key -out server.csr`);
  writeFileSync(path('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    'x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 ' +
      '-extfile server.ext -out server.pem',
  );
  return {
    caFile: path('ca.pem'),
    serverKey: readFileSync(path('server.key')),
    serverCert: readFileSync(path('server.pem')),
  };
}
