import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chooserPage } from '../chooser-page.js';
import { consentPage } from '../consent-page.js';
import { errorPage, flowErrorSentences } from '../error-page.js';
import type { PageContext } from '../layout.js';
import { portalPage } from '../portal-page.js';
import { signOutPage } from '../sign-out-page.js';
import { signedOutPage } from '../signed-out-page.js';
import { en, languageRanges, negotiateLanguage, zhCN } from './index.js';

/** Every text of a catalog, by its dotted path. */
function leaves(catalog: object, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = `${prefix}${key}`;
    if (typeof value === 'string') found.set(path, value);
    else if (typeof value === 'object' && value !== null) {
      for (const [inner, text] of leaves(value as object, `${path}.`)) found.set(inner, text);
    } else assert.fail(`${path} is neither text nor a group`);
  }
  return found;
}

describe('the page catalogs', () => {
  test('both have the same keys, every text filled in', () => {
    const english = leaves(en);
    const chinese = leaves(zhCN);
    assert.deepEqual([...chinese.keys()].sort(), [...english.keys()].sort());
    for (const [path, text] of [...english, ...chinese]) assert.notEqual(text.trim(), '', path);
  });

  test('the Chinese catalog is translated: no text is the English one, each has Chinese in it', () => {
    const english = leaves(en);
    for (const [path, text] of leaves(zhCN)) {
      assert.notEqual(text, english.get(path), `${path} is still English`);
      assert.match(text, /\p{Script=Han}/u, `${path}: ${text}`);
    }
  });

  test('the walk sees a key that is missing', () => {
    const withoutChooser = Object.fromEntries(
      Object.entries(zhCN).filter(([key]) => key !== 'chooser'),
    );
    assert.notDeepEqual([...leaves(withoutChooser).keys()].sort(), [...leaves(en).keys()].sort());
  });

  test('the English sentences are the JSON answers’ messages', () => {
    assert.equal(flowErrorSentences.state_invalid, en.errors.state_invalid);
  });
});

describe('the language of a page', () => {
  test('the Accept-Language range with the highest q-value that one of ours matches', () => {
    assert.equal(negotiateLanguage({ acceptLanguage: 'zh-CN,zh;q=0.9,en;q=0.8' }), 'zh-CN');
    assert.equal(negotiateLanguage({ acceptLanguage: 'en;q=0.5, zh;q=0.8' }), 'zh-CN');
    assert.equal(negotiateLanguage({ acceptLanguage: 'zh;q=0.4, en-GB;q=0.7' }), 'en');
    assert.equal(
      negotiateLanguage({ acceptLanguage: 'fr-FR, de;q=0.9, zh-Hans-CN;q=0.2' }),
      'zh-CN',
    );
    assert.equal(negotiateLanguage({ acceptLanguage: 'ZH-cn' }), 'zh-CN');
  });

  test('equal weights keep the order the browser sent', () => {
    assert.equal(negotiateLanguage({ acceptLanguage: 'en, zh-CN' }), 'en');
    assert.equal(negotiateLanguage({ acceptLanguage: 'zh-CN, en' }), 'zh-CN');
  });

  test('q=0 refuses a language, and a malformed q counts as refusal', () => {
    assert.equal(negotiateLanguage({ acceptLanguage: 'zh;q=0, en;q=0.1' }), 'en');
    assert.equal(negotiateLanguage({ acceptLanguage: 'en;q=2, zh;q=0.3' }), 'zh-CN');
    assert.deepEqual(languageRanges('en;q=abc, fr;q=0.5'), [{ tag: 'fr', q: 0.5 }]);
  });

  test('traditional Chinese alone does not read as simplified, the next range decides', () => {
    assert.equal(negotiateLanguage({ acceptLanguage: 'zh-TW, en;q=0.5' }), 'en');
    assert.equal(negotiateLanguage({ acceptLanguage: 'zh-TW, zh;q=0.9, en;q=0.5' }), 'zh-CN');
  });

  test('nothing of ours asked for, a wildcard, or no header: the operator default', () => {
    for (const acceptLanguage of ['fr, de;q=0.5', '*', '', undefined, 'en;q=0']) {
      assert.equal(negotiateLanguage({ acceptLanguage, fallback: 'zh-CN' }), 'zh-CN');
      assert.equal(negotiateLanguage({ acceptLanguage }), 'en');
    }
  });

  test('the cookie of the switch wins over the header; an unknown cookie is ignored', () => {
    assert.equal(negotiateLanguage({ cookie: 'en', acceptLanguage: 'zh-CN' }), 'en');
    assert.equal(
      negotiateLanguage({ cookie: 'zh-CN', acceptLanguage: 'en', fallback: 'en' }),
      'zh-CN',
    );
    assert.equal(negotiateLanguage({ cookie: 'klingon', acceptLanguage: 'zh' }), 'zh-CN');
    assert.equal(negotiateLanguage({ cookie: 'zh-cn', fallback: 'en' }), 'en');
  });

  test('a hostile header costs little and breaks nothing', () => {
    const long = `${'x-'.repeat(5000)}zh`;
    assert.equal(negotiateLanguage({ acceptLanguage: long, fallback: 'en' }), 'en');
    assert.equal(languageRanges(Array(100).fill('en').join(',')).length, 32);
  });
});

const zh: PageContext = { language: 'zh-CN', returnPath: '/_sso/login' };

function zhPages(): Record<string, string> {
  const user = { userId: 'u1', userName: 'Ann', email: 'ann@example.com' };
  return {
    chooser: chooserPage({
      entries: [{ id: 'github', name: 'GitHub' }],
      returnTo: '/',
      localForm: { csrfToken: 't', error: zhCN.chooser.wrongPassword, username: 'ann' },
      page: zh,
    }),
    chooserEmpty: chooserPage({ entries: [], returnTo: '/', localForm: undefined, page: zh }),
    portal: portalPage({ user: { ...user, isAdmin: true }, signOutCsrf: 'c', page: zh }),
    signOut: signOutPage({ user, signOutCsrf: 'c', page: zh }),
    consent: consentPage({
      application: 'Wiki',
      user,
      groups: ['ops'],
      action: '/_sso/oidc/consent',
      formToken: 't',
      page: zh,
    }),
    consentWithoutGroups: consentPage({
      application: 'Wiki',
      user: { userId: 'u1' },
      groups: [],
      action: '/_sso/oidc/consent',
      formToken: 't',
      page: zh,
    }),
    signedOutHere: signedOutPage({ scope: 'here', page: zh }),
    signedOutEverywhere: signedOutPage({ scope: 'everywhere', page: zh }),
    ...Object.fromEntries(
      [400, 401, 403, 404, 429, 500].map((status) => [
        `error${status}`,
        errorPage({
          status,
          code: 'state_invalid',
          sentence: en.errors.state_invalid,
          detail: 'access_denied',
          reference: 'ABCDE12345',
          tryAgainHref: '/_sso/login/github',
          page: zh,
        }),
      ]),
    ),
    errorSignedIn: errorPage({
      status: 403,
      code: 'forbidden',
      sentence: 'x',
      reference: 'R',
      tryAgainHref: '/',
      signedIn: { user, signOutCsrf: 'c' },
      page: zh,
    }),
    errorWithoutSentence: errorPage({
      status: 409,
      code: 'entry_id_taken',
      sentence: 'An entry with this id exists already.',
      reference: 'R',
      tryAgainHref: '/',
      page: zh,
    }),
  };
}

describe('pages in Simplified Chinese', () => {
  const englishTexts = [...leaves(en).values()];
  for (const [name, page] of Object.entries(zhPages())) {
    test(`${name}: <html lang="zh-CN">, and no English text of the catalog left`, () => {
      assert.match(page, /<html lang="zh-CN">/);
      const text = page.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
      for (const english of englishTexts) {
        // As a whole word: "or" is no leftover inside the code "forbidden".
        const escaped = english.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const word = new RegExp(`(?<![A-Za-z])${escaped}(?![A-Za-z])`);
        assert.doesNotMatch(text, word, `${name} still says "${english}"`);
      }
      assert.doesNotMatch(text, /\b(Sign|Try|Error|Reference|Password|Username)\b/);
    });
  }

  test('the switch links to English and back to the page, and marks the current language', () => {
    const page = chooserPage({
      entries: [],
      returnTo: '/',
      localForm: undefined,
      page: { language: 'zh-CN', returnPath: '/_sso/login?return_to=%2Fwiki' },
    });
    assert.match(
      page,
      /href="\/_sso\/language\/en\?return_to=%2F_sso%2Flogin%3Freturn_to%3D%252Fwiki"/,
    );
    assert.match(page, /<span aria-current="true" lang="zh-CN">简体中文<\/span>/);
  });

  test('a return path that is not a same-origin path falls back to the chooser', () => {
    const page = signedOutPage({
      scope: 'here',
      page: { language: 'en', returnPath: '//evil.example/' },
    });
    assert.match(page, /href="\/_sso\/language\/zh-CN\?return_to=%2F_sso%2Flogin"/);
  });

  test('the organisation name and logo head the page, the name escaped', () => {
    const page = chooserPage({
      entries: [],
      returnTo: '/',
      localForm: undefined,
      page: { ...zh, organization: { name: '<Acme> 集团', logoHref: '/_sso/assets/logo' } },
    });
    assert.match(page.replace(/\s+/g, ' '), /<img src="\/_sso\/assets\/logo" alt="" \/>/);
    assert.match(page, /<span>&lt;Acme&gt; 集团<\/span>/);
  });
});
