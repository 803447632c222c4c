import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { familyNames } from './test-support/exposition.js';

const docs = (name: string) => fileURLToPath(new URL(`../../../../docs/${name}`, import.meta.url));

/** PromQL words that are not metric names: aggregation modifiers and set operators. */
const keywords = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
]);

/**
 * The metric names a PromQL expression reads: what is left once label
 * matchers, strings, ranges, grouping lists and function calls are taken
 * out. Every identifier left must be a metric.
 */
function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names: string[] = [];
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(\()?)/g)) {
    const [word] = match;
    if (match[1] !== undefined || keywords.has(word)) continue;
    names.push(word);
  }
  return names;
}

describe('the dashboard, the alert rules and docs/metrics.md name exported metrics', () => {
  let gw: TestGateway;
  let exported: Set<string>;
  before(async () => {
    gw = await startTestGateway({ env: { SSOGATE_METRICS_TOKEN: 'dashboard-test-token-0123' } });
    const response = await fetch(`${gw.url}/_sso/metrics`, {
      headers: { authorization: 'Bearer dashboard-test-token-0123' },
    });
    exported = familyNames(await response.text());
  });
  after(async () => gw.close());

  /** A family, or a histogram's bucket, sum or count series. */
  const isExported = (name: string) =>
    exported.has(name) || exported.has(name.replace(/_(bucket|sum|count)$/, ''));

  test('the metric reader finds the names and only them', () => {
    assert.deepEqual(
      metricNames(
        'histogram_quantile(0.99, sum by (le, entry) (rate(a_seconds_bucket{step="token"}[5m]))) / b_total > 2',
      ),
      ['a_seconds_bucket', 'b_total'],
    );
  });

  test('every panel of docs/grafana-dashboard.json queries exported metrics', async () => {
    const dashboard = JSON.parse(await readFile(docs('grafana-dashboard.json'), 'utf8')) as {
      panels: { type: string; title: string; targets?: { expr: string }[] }[];
      templating: { list: { query: unknown }[] };
    };
    const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
    assert.ok(panels.length >= 10);
    for (const panel of panels) {
      assert.ok((panel.targets ?? []).length > 0, `${panel.title} has a query`);
      for (const { expr } of panel.targets ?? []) {
        const names = metricNames(expr);
        assert.ok(names.length > 0, `${panel.title}: ${expr}`);
        for (const name of names) assert.ok(isExported(name), `${panel.title}: ${name}`);
      }
    }
    for (const { query } of dashboard.templating.list) {
      const metric = /label_values\((\w+),/.exec(String(query))?.[1];
      if (metric !== undefined) assert.ok(isExported(metric), metric);
    }
  });

  test('every rule of docs/prometheus-alerts.yaml reads exported metrics', async () => {
    const rules = parseYaml(await readFile(docs('prometheus-alerts.yaml'), 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const all = rules.groups.flatMap((group) => group.rules);
    assert.ok(all.some((rule) => rule.expr.includes('step="token"')));
    assert.ok(all.some((rule) => rule.expr.includes('ssogate_signins_total')));
    for (const { alert, expr } of all) {
      const names = metricNames(expr);
      assert.ok(names.length > 0, alert);
      for (const name of names) assert.ok(isExported(name), `${alert}: ${name}`);
    }
  });

  test("docs/metrics.md lists the gateway's own metrics, no more and no fewer", async () => {
    const text = await readFile(docs('metrics.md'), 'utf8');
    const documented = new Set(
      [...text.matchAll(/^\| `(ssogate_[a-z_]+)`/gm)].map((match) => match[1] ?? ''),
    );
    const own = [...exported].filter((name) => name.startsWith('ssogate_'));
    // The active-sessions gauge is there whenever storage can count sessions: always here.
    assert.deepEqual([...documented].sort(), own.sort());
  });
});
