/**
 * Micro-benchmark of the entry engine's hot paths: evaluating a compiled
 * token expression over a typical token response, rendering a typical
 * authorization URL, and mapping a user. Each figure is printed next to a
 * hand-written baseline measured in the same run, so the ratio, not the
 * machine, is what to compare.
 *
 *   npm run bench
 */
import { randomBytes } from 'node:crypto';
import {
  buildAuthorizationRequest,
  compileOAuth2Entry,
  createEvaluationContext,
  evaluate,
  mapUser,
  parseExpression,
  renderUrl,
} from '../src/core/index.js';
import { buildGetEntry } from '../src/core/test-support/entries.js';

const durationMs = Number(process.env.BENCH_MS ?? 1500);

/** Runs `operation` repeatedly for about `durationMs` and returns operations per second. */
function measure(operation: (index: number) => unknown): number {
  let sink: unknown;
  for (let index = 0; index < 10_000; index += 1) sink = operation(index); // warm-up
  let count = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(durationMs) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (let index = 0; index < 1000; index += 1) sink = operation(count + index);
    count += 1000;
    now = process.hrtime.bigint();
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return count / (Number(now - start) / 1e9);
}

function report(name: string, ours: number, baselineName: string, baseline: number): void {
  const format = (value: number) => Math.round(value).toLocaleString('en-US').padStart(12);
  console.log(`${name.padEnd(46)} ${format(ours)} /s`);
  console.log(
    `  baseline: ${baselineName.padEnd(34)} ${format(baseline)} /s   ratio ${(ours / baseline).toFixed(2)}`,
  );
}

// A typical token response, about 300 bytes, made distinct per iteration so
// that no cache can serve a previous result.
const tokenBodies = Array.from({ length: 1024 }, (_, index) =>
  JSON.stringify({
    access_token: `${randomBytes(48).toString('base64url')}${index}`,
    token_type: 'bearer',
    expires_in: 7200,
    refresh_token: randomBytes(48).toString('base64url'),
    scope: 'openid profile email',
    openid: `o-${index}`,
  }),
);
console.log(
  `token response size: ${tokenBodies[0]?.length ?? 0} bytes; ${durationMs} ms per measurement\n`,
);

const tokenParse = parseExpression("JSON_GET($response,'access_token')");
report(
  "evaluate JSON_GET($response,'access_token')",
  measure((index) =>
    evaluate(tokenParse, createEvaluationContext(tokenBodies[index % 1024] ?? '')),
  ),
  'JSON.parse(body).access_token',
  measure(
    (index) =>
      (JSON.parse(tokenBodies[index % 1024] ?? '') as { access_token: string }).access_token,
  ),
);

const entry = compileOAuth2Entry(buildGetEntry());
const values = {
  appid: 'app-1',
  state: randomBytes(32).toString('base64url'),
  redirect_uri: 'https://gate.corp.example/_sso/callback/corp',
};
report(
  'render the authorization URL template',
  measure(() => renderUrl(entry.authorize, values)),
  'a hand-written template literal',
  measure(
    () =>
      `https://as.example/oauth/authorize?appid=${encodeURIComponent(values.appid)}` +
      `&redirect_uri=${encodeURIComponent(values.redirect_uri)}&state=${encodeURIComponent(values.state)}`,
  ),
);
const stateRandom = (size: number) => randomBytes(size);
console.log(
  `${'build an authorization request (state included)'.padEnd(46)} ${Math.round(
    measure(() =>
      buildAuthorizationRequest(entry, {
        publicUrl: 'https://gate.corp.example',
        random: stateRandom,
      }),
    ),
  )
    .toLocaleString('en-US')
    .padStart(12)} /s`,
);

// Five mappings over one user-info response: the body is parsed once.
const userBodies = Array.from({ length: 1024 }, (_, index) =>
  JSON.stringify({
    data: {
      id: `u-${index}`,
      name: 'Han Meimei',
      mail: 'h@corp.example',
      phone: '+86 10 1234',
      dept: 'Sales',
    },
  }),
);
const mappings = [
  ['userId', 'id'],
  ['userName', 'name'],
  ['email', 'mail'],
  ['mobile', 'phone'],
  ['department', 'dept'],
].map(([attribute, key]) => ({
  attribute: attribute as 'userId',
  expression: parseExpression(`JSON_GET(JSON_GET($response, 'data'), '${key ?? ''}')`),
}));
report(
  'map a user with five mappings',
  measure((index) => mapUser(mappings, createEvaluationContext(userBodies[index % 1024] ?? ''))),
  'JSON.parse once, pick five fields',
  measure((index) => {
    const { data } = JSON.parse(userBodies[index % 1024] ?? '') as { data: Record<string, string> };
    return {
      userId: data.id,
      userName: data.name,
      email: data.mail,
      mobile: data.phone,
      department: data.dept,
    };
  }),
);

// The same user-info answer with a 64-bit numeric id (snowflake style): the
// slower path that keeps the integer's exact text (expression/safe-json.ts).
const snowflakeBodies = userBodies.map((body, index) =>
  body.replace(/"id":"u-\d+"/, `"id":${1234567890123456789n + BigInt(index)}`),
);
report(
  'map a user whose id is a 64-bit number',
  measure((index) =>
    mapUser(mappings, createEvaluationContext(snowflakeBodies[index % 1024] ?? '')),
  ),
  'JSON.parse once, pick five fields',
  measure((index) => {
    const { data } = JSON.parse(snowflakeBodies[index % 1024] ?? '') as {
      data: Record<string, string>;
    };
    return [data.id, data.name, data.mail, data.phone, data.dept];
  }),
);
