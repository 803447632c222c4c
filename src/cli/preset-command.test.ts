import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withTestStorage } from '../test-support/storage-fixtures.js';
import { unusedIdpCertificate } from '../features/saml/test-support/saml-entries.js';
import { runCommand } from './test-support/run-command.js';

describe('ssogate entries add --preset', () => {
  test('creates the entry from the preset, the secret read from a file, and audits it', async () => {
    await withTestStorage(async (storage) => {
      const dir = await mkdtemp(join(tmpdir(), 'ssogate-cli-preset-'));
      try {
        const secretFile = join(dir, 'secret');
        await writeFile(secretFile, 'gh-s3cret\n');
        const argv = ['entries', 'add', '--preset', 'github', '--id', 'github'];
        const added = await runCommand(
          [...argv, '--appid', 'Iv1.abc', '--appsecret-file', secretFile],
          {
            storage,
          },
        );
        assert.equal(added.code, 0, added.err);
        // Disabled until tested, with the callback URL the provider must list.
        assert.match(
          added.out,
          /^created entry github from preset github, disabled\ncallback URL to register at the provider: http:\/\/\S+\/_sso\/callback\/github\n$/,
        );
        assert.match(
          added.err,
          /Test sign-in .* then enable it there; --enable creates it enabled/,
        );
        const stored = await storage.entries.get('github');
        assert.equal(stored?.input.appsecret, 'gh-s3cret');
        assert.equal(stored.input.enabled, false);
        assert.equal(stored.input.name, 'GitHub');
        assert.match(
          stored.input.tokenUrl ?? '',
          /^POST https:\/\/github\.com\/login\/oauth\/access_token\?/,
        );
        const [event] = await storage.audit.list({ kind: 'entry_change', limit: 1 });
        assert.equal(event?.detail?.via, 'preset');

        const enabled = await runCommand(
          ['entries', 'add', '--preset', 'github', '--id', 'gh2', '--appid', 'x', '--enable'],
          { storage, env: { SSOGATE_PUBLIC_URL: 'https://sso.corp.example' } },
        );
        assert.equal(enabled.code, 0, enabled.err);
        assert.match(enabled.out, /^created entry gh2 from preset github, enabled\n/);
        assert.match(enabled.out, /https:\/\/sso\.corp\.example\/_sso\/callback\/gh2\n$/);
        assert.equal((await storage.entries.get('gh2'))?.input.enabled, true);

        const again = await runCommand([...argv, '--appid', 'x'], { storage });
        assert.equal(again.code, 1);
        assert.match(again.err, /exists already/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  test('a parameter the preset needs, an unknown preset or parameter: each a clear failure', async () => {
    await withTestStorage(async (storage) => {
      const base = ['entries', 'add', '--id', 'w', '--appid', 'corp'];
      const missing = await runCommand([...base, '--preset', 'wecom'], { storage });
      assert.equal(missing.code, 1);
      assert.match(missing.err, /parameters\.agentid/);
      const unknown = await runCommand([...base, '--preset', 'nope'], { storage });
      assert.match(unknown.err, /no preset "nope"; presets: github/);
      const badParam = await runCommand([...base, '--preset', 'gitlab', '--param', 'hots=x'], {
        storage,
      });
      assert.match(badParam.err, /no parameter hots; it has: host/);
      const gitlab = await runCommand(
        [...base, '--preset', 'gitlab', '--param', 'host=https://git.corp.example'],
        { storage },
      );
      assert.equal(gitlab.code, 0, gitlab.err);
      assert.match(
        (await storage.entries.get('w'))?.input.userInfoUrl ?? '',
        /^https:\/\/git\.corp\.example\/api\/v4\/user$/,
      );
      const noAppid = await runCommand(['entries', 'add', '--id', 'g', '--preset', 'gitlab'], {
        storage,
      });
      assert.match(noAppid.err, /preset gitlab needs --appid/);
      const samlWithAppid = await runCommand([...base, '--preset', 'okta-saml'], { storage });
      assert.match(samlWithAppid.err, /takes no --appid/);
      const okta = await runCommand(
        [
          'entries',
          'add',
          '--id',
          'okta-saml',
          '--preset',
          'okta-saml',
          '--param',
          'ssoUrl=https://dev-1.okta.com/app/corp_ssogate_1/exk1/sso/saml',
          '--param',
          'issuer=http://www.okta.com/exk1',
          '--param',
          `certificate=${unusedIdpCertificate}`,
        ],
        { storage },
      );
      assert.equal(okta.code, 0, okta.err);
      const oktaEntry = await storage.entries.get('okta-saml');
      assert.equal(oktaEntry?.input.type, 'saml');
      assert.equal(oktaEntry.input.appid, undefined);
      const keycloak = await runCommand(
        [
          ...base.map((part) => (part === 'w' ? 'kc' : part)),
          '--preset',
          'keycloak',
          '--param',
          'baseUrl=https://sso.corp.example/',
          '--param',
          'realm=staff',
        ],
        { storage },
      );
      assert.equal(keycloak.code, 0, keycloak.err);
      // An OpenID Connect preset: the issuer made from the parameters, the rest discovered.
      const oidcEntry = await storage.entries.get('kc');
      assert.deepEqual(oidcEntry?.input.oidc, {
        issuer: 'https://sso.corp.example/realms/staff',
        scope: 'profile email',
      });
      const noRealm = await runCommand(
        [...base, '--preset', 'keycloak', '--param', 'baseUrl=https://sso.corp.example'],
        { storage },
      );
      assert.equal(noRealm.code, 1);
      assert.match(noRealm.err, /parameters\.realm/);
      const usage = await runCommand(['entries', 'add', '--preset', 'github'], { storage });
      assert.equal(usage.code, 2);
    });
  });
});
