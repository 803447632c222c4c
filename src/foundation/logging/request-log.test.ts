import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { capturingLogger } from '../../test-support/log-capture.js';
import { OneLinePerRequest } from './request-log.js';

test('a request is one log line, with its masked query, status and time, written when answered', async () => {
  const { logger, lines } = capturingLogger();
  const app = Fastify({ loggerInstance: logger, logController: new OneLinePerRequest() });
  app.get('/_sso/callback/hub', async (_request, reply) => reply.code(302).redirect('/'));
  app.get('/boom', () => {
    throw new Error('broken');
  });
  try {
    await app.inject({ url: '/_sso/callback/hub?code=CODE-1234abcd&state=STATE-99' });
    const written = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(written.length, 1);
    const line = written.at(0);
    assert.ok(line);
    assert.equal(line.msg, 'request completed');
    assert.deepEqual(line.res, { statusCode: 302 });
    assert.equal(typeof line.responseTime, 'number');
    const req = line.req as { method: string; url: string };
    assert.equal(req.method, 'GET');
    assert.match(req.url, /^\/_sso\/callback\/hub\?/);
    assert.doesNotMatch(lines.join(''), /CODE-1234abcd|STATE-99/);

    // A failure keeps the framework's error line, and is one request line too.
    lines.length = 0;
    await app.inject({ url: '/boom' });
    const failed = lines.map(
      (text) => JSON.parse(text) as { msg: string; level: number; res?: { statusCode: number } },
    );
    assert.ok(failed.some((entry) => entry.level >= 50 && entry.msg === 'broken'));
    assert.deepEqual(
      failed
        .filter((entry) => entry.msg === 'request completed' || entry.msg === 'incoming request')
        .map((entry) => [entry.msg, entry.res?.statusCode]),
      [['request completed', 500]],
    );
  } finally {
    await app.close();
  }
});

test('a request line carries no header: neither the cookie and credentials sent nor the cookie set', async () => {
  const { logger, lines } = capturingLogger();
  const app = Fastify({ loggerInstance: logger, logController: new OneLinePerRequest() });
  app.get('/page', async (_request, reply) =>
    reply.header('set-cookie', 'ssogate_session=SET-COOKIE-SECRET; HttpOnly').send('ok'),
  );
  try {
    await app.inject({
      url: '/page',
      headers: { cookie: 'ssogate_session=COOKIE-SECRET', authorization: 'Bearer AUTH-SECRET' },
    });
    // Whatever a line is given as its request or answer, it writes what the serializers pick.
    logger.info({ req: { method: 'GET', url: '/x', headers: { cookie: 'RAW-SECRET' } } }, 'raw');
    logger.info({ res: { statusCode: 200, headers: { 'set-cookie': 'RAW-SET-SECRET' } } }, 'raw');
    assert.equal(lines.length, 3);
    assert.doesNotMatch(lines.join(''), /SECRET|headers/);
  } finally {
    await app.close();
  }
});
