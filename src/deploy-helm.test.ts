import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { knownSettingNames } from './test-support/known-settings.js';
import { renderChart } from './test-support/helm-template.js';

// Compiled to build/src/, so the repository is two levels up.
const chart = fileURLToPath(new URL('../../deploy/helm/ssogate/', import.meta.url));
const release = { name: 'sso', namespace: 'identity' };

type Manifest = Record<string, unknown> & {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly annotations?: Record<string, string> };
};

const required = { secretKey: Buffer.alloc(32, 1).toString('base64') };

async function render(values: Record<string, unknown> = {}): Promise<Manifest[]> {
  return (await renderChart(chart, { ...required, ...values }, release)) as Manifest[];
}

/**
 * Each manifest checked against the Kubernetes API's JSON schema, by the
 * model class of its apiVersion and kind (kubernetes-models).
 */
async function validateAgainstSchema(manifest: Manifest): Promise<void> {
  const module = (await import(
    `kubernetes-models/${manifest.apiVersion}/${manifest.kind}`
  )) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = module[manifest.kind];
  assert.ok(Model !== undefined, `${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest).validate();
}

const byKind = (manifests: readonly Manifest[], kind: string): Manifest[] =>
  manifests.filter((manifest) => manifest.kind === kind);

interface Container {
  readonly readinessProbe: { httpGet: { path: string } };
  readonly livenessProbe: { httpGet: { path: string } };
  readonly securityContext: Record<string, unknown>;
  readonly envFrom: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
}

function containerOf(deployment: Manifest | undefined): Container {
  const spec = deployment?.spec as { template: { spec: { containers: Container[] } } };
  const [container] = spec.template.spec.containers;
  assert.ok(container !== undefined);
  return container;
}

describe('the Helm chart deploy/helm/ssogate', () => {
  test('renders valid Kubernetes objects with the defaults, every option on, and every option off', async () => {
    const variants = [
      {},
      {
        autoscaling: { enabled: true },
        exampleIngress: { enabled: true },
        databaseUrl: 'postgres://ssogate:pw@db:5432/ssogate',
        redisUrl: 'redis://cache:6379',
        adminPassword: 'a long admin password',
        persistence: { existingClaim: 'ssogate-data' },
        settings: { SSOGATE_LOG_LEVEL: 'debug' },
        trustedProxies: '10.244.0.0/16',
        networkPolicy: {
          enabled: true,
          extraFrom: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } } }],
        },
      },
      { podDisruptionBudget: { enabled: false }, existingSecret: 'mine', secretKey: '' },
    ];
    for (const values of variants) {
      const manifests = await render(values);
      assert.ok(manifests.length >= 3);
      for (const manifest of manifests) await validateAgainstSchema(manifest);
    }
  });

  test('the defaults: a Deployment with probes on the health routes, its Service, Secret, ConfigMap and budget', async () => {
    const manifests = await render();
    assert.deepEqual(manifests.map(({ kind }) => kind).sort(), [
      'ConfigMap',
      'Deployment',
      'PodDisruptionBudget',
      'Secret',
      'Service',
    ]);
    const container = containerOf(byKind(manifests, 'Deployment')[0]);
    assert.equal(container.readinessProbe.httpGet.path, '/_sso/readyz');
    assert.equal(container.livenessProbe.httpGet.path, '/_sso/healthz');
    assert.deepEqual(container.securityContext, {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    assert.deepEqual(
      container.envFrom.map((source) => source.configMapRef?.name ?? source.secretRef?.name),
      ['sso-ssogate', 'sso-ssogate'],
    );
    const secret = byKind(manifests, 'Secret')[0]?.data as Record<string, string>;
    assert.equal(
      Buffer.from(secret.SSOGATE_SECRET_KEY ?? '', 'base64').toString(),
      required.secretKey,
    );
    assert.deepEqual(Object.keys(secret), ['SSOGATE_SECRET_KEY']);
    const settings = byKind(manifests, 'ConfigMap')[0]?.data as Record<string, string>;
    assert.equal(settings.SSOGATE_TRUSTED_PROXIES, undefined, 'no proxy is believed by default');
  });

  test('the NetworkPolicy admits only the ingress controller, and peers named in extraFrom', async () => {
    const trusted = await render({ trustedProxies: '10.244.0.0/16' });
    const settings = byKind(trusted, 'ConfigMap')[0]?.data as Record<string, string>;
    assert.equal(settings.SSOGATE_TRUSTED_PROXIES, '10.244.0.0/16');
    const prometheus = { podSelector: { matchLabels: { app: 'prometheus' } } };
    const [policy, ...others] = byKind(
      await render({ networkPolicy: { enabled: true, extraFrom: [prometheus] } }),
      'NetworkPolicy',
    );
    assert.equal(others.length, 0);
    assert.deepEqual(policy?.spec, {
      podSelector: {
        matchLabels: { 'app.kubernetes.io/name': 'ssogate', 'app.kubernetes.io/instance': 'sso' },
      },
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [
            {
              namespaceSelector: {
                matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' },
              },
              podSelector: { matchLabels: { 'app.kubernetes.io/name': 'ingress-nginx' } },
            },
            prometheus,
          ],
          ports: [{ port: 'http', protocol: 'TCP' }],
        },
      ],
    });
    const deployment = byKind(await render(), 'Deployment')[0]?.spec as {
      template: { metadata: { labels: Record<string, string> } };
    };
    for (const [label, value] of Object.entries(
      (policy.spec as { podSelector: { matchLabels: Record<string, string> } }).podSelector
        .matchLabels,
    ))
      assert.equal(
        deployment.template.metadata.labels[label],
        value,
        'the policy selects the pods',
      );
  });

  test('every setting the ConfigMap and Secret give is one the gateway knows', async () => {
    const manifests = await render({
      databaseUrl: 'postgres://ssogate:pw@db:5432/ssogate',
      redisUrl: 'redis://cache:6379',
      adminPassword: 'a long admin password',
    });
    const given = [...byKind(manifests, 'ConfigMap'), ...byKind(manifests, 'Secret')].flatMap(
      (manifest) => Object.keys(manifest.data as Record<string, string>),
    );
    assert.ok(given.length >= 8);
    for (const name of given) assert.ok(knownSettingNames.has(name), `${name} is not a setting`);
  });

  test('without a key or a Secret of your own, rendering fails and says what to set', async () => {
    await assert.rejects(render({ secretKey: '' }), /secretKey is required/);
  });

  test('autoscaling takes the replica count over; the example Ingress asks the gateway before the application', async () => {
    const manifests = await render({
      autoscaling: { enabled: true },
      exampleIngress: { enabled: true },
    });
    const deployment = byKind(manifests, 'Deployment')[0];
    assert.equal((deployment?.spec as { replicas?: number }).replicas, undefined);
    assert.equal(byKind(manifests, 'HorizontalPodAutoscaler').length, 1);
    const ingresses = byKind(manifests, 'Ingress');
    assert.deepEqual(
      ingresses.map(({ metadata }) => metadata.name),
      ['sso-ssogate-pages', 'sso-ssogate-protected-app'],
    );
    const annotations = ingresses[1]?.metadata.annotations ?? {};
    assert.equal(
      annotations['nginx.ingress.kubernetes.io/auth-url'],
      'http://sso-ssogate.identity.svc.cluster.local:80/_sso/auth',
    );
    assert.equal(
      annotations['nginx.ingress.kubernetes.io/auth-signin'],
      'https://$host/_sso/login?return_to=$escaped_request_uri',
    );
    assert.equal(
      ingresses[0]?.metadata.annotations,
      undefined,
      "the gateway's own pages need no check",
    );
  });
});
