import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateEntry } from '../../../src/core/index.js';
import type { EntryView } from '../types.js';
import { draftFromEntry, emptyDraft, toEntryBody } from './entry-draft.js';

describe('the entry draft of an OpenID Connect entry', () => {
  const view: EntryView = {
    id: 'corp-oidc',
    name: 'Corp',
    enabled: true,
    isDefault: false,
    type: 'oauth2',
    appid: 'ssogate',
    appsecretSet: true,
    extensionSecretSet: false,
    oidc: { issuer: 'https://login.corp.example', userInfo: 'both', clockSkewSeconds: 30 },
    oidcDiscovery: null,
    broken: null,
    position: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    lastSuccessfulSignInAt: null,
    lastFailedSignInAt: null,
  };

  test('saving it again keeps the whole oidc block, and leaves the discovered URLs blank', () => {
    const body = toEntryBody(draftFromEntry(view));
    assert.deepEqual(body.oidc, view.oidc);
    assert.equal(body.authorizeUrl, '');
    const result = validateEntry({ ...body, appsecret: 'kept' });
    assert.ok(result.ok, JSON.stringify(result.ok ? [] : result.problems.map((p) => p.message)));
  });

  test('a blank issuer sends no oidc block', () => {
    assert.equal(toEntryBody({ ...emptyDraft, oidcIssuer: '  ' }).oidc, undefined);
  });
});
