import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { capturingLogger } from '../../test-support/log-capture.js';
import { markRoutine, OneLinePerRequest } from './request-log.js';
import { RoutineLines, routineLineEvery } from './routine-lines.js';

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

test('a routine request writes its line one time in routineLineEvery, unless it fails or all are asked for', async () => {
  const sampledLog = capturingLogger();
  const allLog = capturingLogger();
  const apps = [
    Fastify({
      loggerInstance: sampledLog.logger,
      logController: new OneLinePerRequest(new RoutineLines('sampled')),
    }),
    Fastify({
      loggerInstance: allLog.logger,
      logController: new OneLinePerRequest(new RoutineLines('all')),
    }),
  ];
  for (const app of apps) {
    app.get('/routine', async (request, reply) => {
      markRoutine(request);
      return reply.redirect('https://idp.example/authorize', 302);
    });
    app.get('/routine-refused', async (request, reply) => {
      markRoutine(request);
      return reply.code(429).send('later');
    });
  }
  const [sampledApp, allApp] = apps;
  assert.ok(sampledApp && allApp);
  try {
    for (let sent = 0; sent < routineLineEvery * 3; sent += 1) {
      await sampledApp.inject({ url: '/routine' });
      await allApp.inject({ url: '/routine' });
    }
    assert.equal(sampledLog.lines.length, 3);
    assert.equal(allLog.lines.length, routineLineEvery * 3);

    sampledLog.lines.length = 0;
    for (let sent = 0; sent < 5; sent += 1) await sampledApp.inject({ url: '/routine-refused' });
    const refused = sampledLog.lines.map(
      (line) => (JSON.parse(line) as { res: { statusCode: number } }).res.statusCode,
    );
    assert.deepEqual(refused, [429, 429, 429, 429, 429]);
  } finally {
    await Promise.all(apps.map((app) => app.close()));
  }
});
