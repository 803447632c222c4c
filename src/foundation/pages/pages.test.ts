import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorCodes } from '../../core/index.js';
import * as chooser from './chooser-page.js';
import * as consent from './consent-page.js';
import * as error from './error-page.js';
import * as formPost from './form-post-page.js';
import * as portal from './portal-page.js';
import * as signOut from './sign-out-page.js';
import * as signedOut from './signed-out-page.js';
import { stylesheet } from './stylesheet.js';

const { flowErrorSentences } = error;

/**
 * The markup is formatted by prettier, so tests look at it with whitespace
 * runs collapsed and void-element slashes dropped.
 */
function flat(page: string): string {
  return page.replace(/\s+/g, ' ').replace(/ ?\/>/g, '>');
}
const errorPage = (input: error.ErrorPageInput): string => flat(error.errorPage(input));
const chooserPage = (input: chooser.ChooserPageInput): string => flat(chooser.chooserPage(input));
const portalPage = (input: portal.PortalPageInput): string => flat(portal.portalPage(input));
const signedOutPage = (scope: signedOut.SignOutScope = 'everywhere'): string =>
  flat(signedOut.signedOutPage({ scope }));
const signOutPage = (input: signOut.SignOutPageInput): string => flat(signOut.signOutPage(input));
const consentPage = (input: Parameters<typeof consent.consentPage>[0]): string =>
  flat(consent.consentPage(input));
const consentInput = {
  application: 'Team wiki',
  user: { userId: 'u1', userName: 'Ann', email: 'ann@example.com' },
  groups: ['ops', 'dev'],
  action: '/_sso/oidc/consent',
  formToken: 'token1',
};

const EVIL = `<script>alert(1)</script>"'`;
const EVIL_ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;';

function errorInput(
  overrides: Partial<Parameters<typeof errorPage>[0]> = {},
): Parameters<typeof errorPage>[0] {
  return {
    status: 400,
    code: 'state_invalid',
    sentence: flowErrorSentences.state_invalid ?? '',
    reference: 'ABCDE12345',
    tryAgainHref: '/_sso/login/github?return_to=%2Fdashboard',
    ...overrides,
  };
}

function samplePages(): Record<string, string> {
  return {
    error: errorPage(errorInput({ detail: 'The user denied access' })),
    chooser: chooserPage({
      entries: [
        { id: 'github', name: 'GitHub' },
        { id: 'corp', name: 'Corporate' },
      ],
      returnTo: '/dashboard?x=1',
      localForm: { csrfToken: 'tok', error: 'The username or password is wrong.', username: 'ann' },
    }),
    chooserEntriesOnly: chooserPage({
      entries: [{ id: 'a', name: 'A' }],
      returnTo: '/',
      localForm: undefined,
    }),
    chooserLocalOnly: chooserPage({ entries: [], returnTo: '/', localForm: { csrfToken: 'tok' } }),
    chooserEmpty: chooserPage({ entries: [], returnTo: '/', localForm: undefined }),
    portal: portalPage({
      user: { userId: 'u1', userName: 'Ann', email: 'ann@example.com', isAdmin: true },
      signOutCsrf: 'csrf1',
    }),
    portalMinimal: portalPage({ user: { userId: 'u1', isAdmin: false }, signOutCsrf: 'csrf1' }),
    signedOut: signedOutPage(),
    signOut: signOutPage({ user: { userId: 'u1', userName: 'Ann' }, signOutCsrf: 'csrf1' }),
    consent: consentPage(consentInput),
    consentMinimal: consentPage({ ...consentInput, user: { userId: 'u1' }, groups: [] }),
  };
}

/** Every value of an href, src or action attribute. */
function urlAttributes(page: string): string[] {
  return [...page.matchAll(/\b(?:href|src|action)="([^"]*)"/g)].map((match) => match[1] ?? '');
}

describe('every page', () => {
  for (const [name, page] of Object.entries(samplePages())) {
    test(`${name}: a whole accessible document with the shared stylesheet`, () => {
      assert.ok(page.startsWith('<!doctype html> <html lang="en">'));
      assert.match(page, /<meta charset="utf-8">/);
      assert.match(page, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
      assert.match(page, /<title>[^<]+<\/title>/);
      assert.match(page, /<link rel="stylesheet" href="\/_sso\/assets\/style.css">/);
      assert.match(page, /<main>[\s\S]*<h1>[^<]+<\/h1>[\s\S]*<\/main>/);
    });

    test(`${name}: no script, no inline style, nothing from another origin, no refresh`, () => {
      assert.doesNotMatch(page, /<script/i);
      assert.doesNotMatch(page, /style=/i);
      assert.doesNotMatch(page, /<style/i);
      assert.doesNotMatch(page, /\son[a-z]+=/i);
      assert.doesNotMatch(page, /https?:\/\//i);
      assert.doesNotMatch(page, /http-equiv/i);
      for (const url of urlAttributes(page)) {
        assert.ok(url.startsWith('/') && !url.startsWith('//'), url);
      }
    });
  }

  test('labels point at existing fields', () => {
    for (const page of Object.values(samplePages())) {
      for (const match of page.matchAll(/<label for="([^"]+)">/g)) {
        assert.match(page, new RegExp(`id="${match[1] ?? ''}"`));
      }
    }
  });
});

describe('errorPage', () => {
  test('shows the sentence, code, reference, a try-again link and the chooser', () => {
    const page = errorPage(errorInput());
    assert.match(page, /This sign-in link has expired or was already used\. Please start again\./);
    assert.match(page, /Error code: <code>state_invalid<\/code>/);
    assert.match(page, /Reference: <code>ABCDE12345<\/code>/);
    assert.match(
      page,
      /<a class="button" href="\/_sso\/login\/github\?return_to=%2Fdashboard">Try again<\/a>/,
    );
    assert.match(page, /<a href="\/_sso\/login">/);
  });

  test('escapes every field', () => {
    const page = errorPage({
      status: 400,
      code: EVIL,
      sentence: EVIL,
      detail: EVIL,
      reference: EVIL,
      tryAgainHref: `/x?${EVIL}`,
    });
    assert.doesNotMatch(page, /<script/);
    // code, sentence, detail, reference; an unknown code offers no "Try again".
    assert.equal(page.split(EVIL_ESCAPED).length - 1, 4);
    const retry = errorPage(errorInput({ tryAgainHref: `/x?${EVIL}` }));
    assert.doesNotMatch(retry, /<script/);
    assert.equal(retry.split(EVIL_ESCAPED).length - 1, 1);
  });

  test('"Try again" only where doing it again can help', () => {
    for (const code of ['state_invalid', 'token_request_failed', 'csrf_failed', 'rate_limited']) {
      assert.match(errorPage(errorInput({ code })), />Try again</, code);
    }
    for (const code of [
      'entry_disabled',
      'entry_unknown',
      'userinfo_parse_failed',
      'user_disabled',
      'signup_not_allowed',
      'forbidden',
    ]) {
      const page = errorPage(errorInput({ code }));
      assert.doesNotMatch(page, /Try again/, code);
      assert.match(
        page,
        /<a class="button" href="\/_sso\/login">Choose another way to sign in<\/a>/,
      );
    }
  });

  test('a call refused for the entry’s settings: an administrator must fix it, no retry', () => {
    const refused = errorPage(
      errorInput({
        status: 502,
        code: 'token_request_failed',
        facts: { step: 'token', cause: 'response_status', status: 400, error: 'invalid_client' },
      }),
    );
    assert.match(refused, /An administrator must fix it; please give them the reference below\./);
    assert.match(refused, /Reference: <code>ABCDE12345<\/code>/);
    assert.doesNotMatch(refused, /try again later|Try again/i);
    assert.match(refused, />Choose another way to sign in</);
    // A 401 without a reason is the credentials too; an expired code is not.
    for (const [facts, settings] of [
      [{ status: 401 }, true],
      [{ status: 400, error: 'invalid_grant' }, false],
      [{ status: 500 }, false],
      [{ network: 'ECONNREFUSED' }, false],
    ] as const) {
      assert.equal(error.isSettingsFault('token_request_failed', facts), settings);
    }
    assert.equal(error.isSettingsFault('token_parse_failed', { status: 401 }), false);
    const chinese = errorPage(
      errorInput({
        status: 502,
        code: 'userinfo_request_failed',
        facts: { status: 403 },
        page: { language: 'zh-CN', returnPath: '/_sso/login' },
      }),
    );
    assert.match(chinese, /需要由管理员修正，请把下面的参考编号告诉管理员。/);
  });

  test('a signed-in user’s failed request to an application offers Try again, not another sign-in', () => {
    for (const code of ['upstream_unavailable', 'upstream_timeout']) {
      const page = errorPage(errorInput({ status: 502, code, tryAgainHref: '/wiki?page=2' }));
      assert.match(page, /<a class="button" href="\/wiki\?page=2">Try again<\/a>/, code);
      assert.doesNotMatch(page, /Choose another way/, code);
      assert.match(page, /<a href="\/">Go to the start page<\/a>/, code);
    }
  });

  test('removing the last second factor too soon offers a code, in the page’s language', () => {
    const input = {
      status: 403,
      code: 'second_factor_not_recent',
      tryAgainHref: '/_sso/factor?return_to=%2F_sso%2Ffactors',
    };
    const page = errorPage(errorInput(input));
    assert.match(page, /Removing your last second factor needs one given in the last 15 minutes/);
    assert.match(
      page,
      /<a class="button" href="\/_sso\/factor\?return_to=%2F_sso%2Ffactors">Try again<\/a>/,
    );
    assert.doesNotMatch(page, /Choose another way/);
    const chinese = errorPage(
      errorInput({ ...input, page: { language: 'zh-CN', returnPath: '/_sso/factors' } }),
    );
    assert.match(chinese, /移除最后一种第二重验证方式，需要在 15 分钟内验证过/);
  });

  test('a refused signed-in user sees who they are and a sign-out', () => {
    const page = errorPage(
      errorInput({
        status: 403,
        code: 'forbidden',
        signedIn: { user: { userId: 'u-1', userName: 'Ann' }, signOutCsrf: 'csrf-1' },
      }),
    );
    assert.match(page, /Signed in as <strong>Ann<\/strong> \(u-1\)/);
    assert.match(page, /<input type="hidden" name="csrf" value="csrf-1">/);
    assert.match(page, /Sign out everywhere/);
    assert.doesNotMatch(page, /Try again|Choose another way/);
  });

  test('a try-again link that is not a same-origin path falls back to the chooser', () => {
    for (const href of [
      'javascript:alert(1)',
      '//evil.com',
      'https://evil.com',
      '/\\evil.com',
      '/\t/x',
      '',
    ]) {
      const page = errorPage(errorInput({ tryAgainHref: href }));
      assert.match(page, /<a class="button" href="\/_sso\/login">Try again<\/a>/, href);
    }
  });

  test('the detail is one line cut to 300 characters', () => {
    const page = errorPage(errorInput({ detail: `line one\r\nline two ${'x'.repeat(400)}` }));
    const shown = /Details from the sign-in service: ([^<]*)<\/p>/.exec(page)?.[1] ?? '';
    assert.ok(shown.startsWith('line one line two x'));
    assert.equal(Array.from(shown).length, 300);
    assert.ok(shown.endsWith('…'));
  });

  test('the cut never splits an entity or a surrogate pair', () => {
    const page = errorPage(errorInput({ detail: `${'😀'.repeat(299)}&&&` }));
    const shown = /Details from the sign-in service: ([^<]*)<\/p>/.exec(page)?.[1] ?? '';
    assert.equal(shown, `${'😀'.repeat(299)}…`);
    const amp = errorPage(errorInput({ detail: `${'a'.repeat(298)}&b` }));
    assert.match(amp, /a&amp;b<\/p>/);
  });

  test('no detail, no detail paragraph', () => {
    assert.doesNotMatch(errorPage(errorInput()), /Details from/);
    assert.doesNotMatch(errorPage(errorInput({ detail: ' \r\n ' })), /Details from/);
  });

  test('the heading follows the status', () => {
    assert.match(errorPage(errorInput({ status: 403 })), /<h1>Not allowed<\/h1>/);
    assert.match(errorPage(errorInput({ status: 502 })), /<h1>Something went wrong<\/h1>/);
    assert.match(errorPage(errorInput({ status: 400 })), /<h1>Sign-in did not work<\/h1>/);
  });
});

describe('flowErrorSentences', () => {
  const flowCodes = [
    'provider_error',
    'missing_code',
    'code_invalid',
    'state_invalid',
    'entry_unknown',
    'entry_disabled',
    'token_request_failed',
    'token_parse_failed',
    'userinfo_request_failed',
    'userinfo_parse_failed',
    'user_disabled',
    'signup_not_allowed',
    'account_conflict',
    'user_id_reserved',
  ] as const;
  const gatewayCodes = [
    'unauthenticated',
    'forbidden',
    'csrf_failed',
    'local_sign_in_failed',
    'rate_limited',
    'request_invalid',
    'not_found',
    'service_unavailable',
    'internal_error',
  ] as const;

  test('has a plain sentence for every flow and page-reaching gateway code', () => {
    for (const code of [...flowCodes, ...gatewayCodes]) {
      const sentence = flowErrorSentences[code];
      assert.ok(sentence !== undefined && /^[A-Z].*\.$/.test(sentence), code);
    }
  });

  test('the sentences the brief fixes', () => {
    assert.equal(
      flowErrorSentences.state_invalid,
      'This sign-in link has expired or was already used. Please start again.',
    );
    assert.equal(
      flowErrorSentences.account_conflict,
      'An account with this name already exists and cannot be signed in to this way. Ask your administrator.',
    );
    assert.equal(
      flowErrorSentences.user_disabled,
      'Your account is disabled. Ask your administrator.',
    );
  });

  test('every key is a registered error code', () => {
    for (const code of Object.keys(flowErrorSentences)) {
      assert.ok((errorCodes as readonly string[]).includes(code), code);
    }
  });
});

describe('chooserPage', () => {
  test('one button link per entry with the id and return_to encoded', () => {
    const page = chooserPage({
      entries: [
        { id: 'git hub/../x?y=1&z', name: 'GitHub' },
        { id: 'corp', name: 'Corporate' },
      ],
      returnTo: '/dashboard?x=1&y=2',
      localForm: undefined,
    });
    assert.match(page, /<h1>Sign in<\/h1>/);
    assert.match(
      page,
      /<a class="button" href="\/_sso\/login\/git%20hub%2F..%2Fx%3Fy%3D1%26z\?return_to=%2Fdashboard%3Fx%3D1%26y%3D2">GitHub<\/a>/,
    );
    assert.match(
      page,
      /<a class="button" href="\/_sso\/login\/corp\?return_to=%2Fdashboard%3Fx%3D1%26y%3D2">Corporate<\/a>/,
    );
    assert.doesNotMatch(page, /<form/);
  });

  test('escapes every field', () => {
    const page = chooserPage({
      entries: [{ id: EVIL, name: EVIL }],
      returnTo: EVIL,
      localForm: { csrfToken: EVIL, error: EVIL, username: EVIL },
    });
    assert.doesNotMatch(page, /<script/);
    // name, return_to, csrf, error, username; the id and returnTo in the link are URL-encoded.
    assert.equal(page.split(EVIL_ESCAPED).length - 1, 5);
    assert.match(
      page,
      /href="\/_sso\/login\/%3Cscript%3Ealert\(1\)%3C%2Fscript%3E%22&#39;\?return_to=%3Cscript%3E/,
    );
    assert.match(page, /href="[^"]*%22&#39;\?/);
  });

  test('the local form posts username, password, return_to and csrf', () => {
    const page = chooserPage({
      entries: [],
      returnTo: '/dashboard?x=1',
      localForm: { csrfToken: 'tok123', username: 'ann' },
    });
    assert.match(page, /<form method="post" action="\/_sso\/login\/local">/);
    assert.match(page, /<input type="hidden" name="return_to" value="\/dashboard\?x=1">/);
    assert.match(page, /<input type="hidden" name="csrf" value="tok123">/);
    assert.match(page, /<label for="username">Username<\/label>/);
    assert.match(
      page,
      /<input id="username" name="username" type="text" autocomplete="username"[^>]* value="ann">/,
    );
    assert.match(page, /<label for="password">Password<\/label>/);
    assert.match(
      page,
      /<input id="password" name="password" type="password" autocomplete="current-password"/,
    );
    assert.match(page, /<button type="submit">Sign in<\/button>/);
    assert.doesNotMatch(page, /role="alert"/);
    assert.doesNotMatch(page, /<p class="separator">/);
  });

  test('the error is announced with role="alert" and tied to the fields', () => {
    const page = chooserPage({
      entries: [{ id: 'a', name: 'A' }],
      returnTo: '/',
      localForm: { csrfToken: 't', error: 'The username or password is wrong.' },
    });
    assert.match(
      page,
      /<p class="error" id="sign-in-error" role="alert">The username or password is wrong\.<\/p>/,
    );
    assert.match(page, /aria-describedby="sign-in-error"/);
    assert.match(page, /<p class="separator">or<\/p>/);
    assert.match(page, /name="username"[^>]* value=""/);
  });

  test('with nothing to offer it says so', () => {
    assert.match(
      chooserPage({ entries: [], returnTo: '/', localForm: undefined }),
      /Ask your administrator/,
    );
  });
});

describe('portalPage', () => {
  test('names the user, offers a POST sign-out with csrf and an admin link for admins', () => {
    const page = portalPage({
      user: { userId: 'u-1', userName: 'Ann', email: 'ann@example.com', isAdmin: true },
      signOutCsrf: 'csrf-1',
    });
    assert.match(page, /Signed in as <strong>Ann<\/strong> \(u-1\)/);
    assert.match(page, /<form method="post" action="\/_sso\/logout">/);
    assert.match(page, /<input type="hidden" name="csrf" value="csrf-1">/);
    assert.match(page, /<button type="submit" name="scope" value="here">Sign out here<\/button>/);
    assert.match(
      page,
      /<button type="submit" name="scope" value="everywhere">Sign out everywhere<\/button>/,
    );
    assert.match(page, /<a href="\/_sso\/admin">/);
  });

  test('no admin link for others; falls back to e-mail, then the id', () => {
    const byEmail = portalPage({
      user: { userId: 'u-1', email: 'a@example.com', isAdmin: false },
      signOutCsrf: 'c',
    });
    assert.match(byEmail, /Signed in as <strong>a@example\.com<\/strong> \(u-1\)/);
    assert.doesNotMatch(byEmail, /\/_sso\/admin/);
    const byId = portalPage({ user: { userId: 'u-1', isAdmin: false }, signOutCsrf: 'c' });
    assert.match(byId, /Signed in as <strong>u-1<\/strong><\/p>/);
  });

  test('escapes every field', () => {
    const page = portalPage({
      user: { userId: `u${EVIL}`, userName: EVIL, email: `x${EVIL}`, isAdmin: true },
      signOutCsrf: EVIL,
    });
    assert.doesNotMatch(page, /<script/);
    // userName, userId, email, csrf.
    assert.equal(page.split(EVIL_ESCAPED).length - 1, 4);
  });
});

describe('signOutPage', () => {
  test('asks, with a POST form carrying the token and a way back', () => {
    const page = signOutPage({ user: { userId: 'u-1', userName: 'Ann' }, signOutCsrf: 'csrf-1' });
    assert.match(page, /<h1>Sign out\?<\/h1>/);
    assert.match(page, /Signed in as <strong>Ann<\/strong> \(u-1\)/);
    assert.match(page, /<form method="post" action="\/_sso\/logout">/);
    assert.match(page, /<input type="hidden" name="csrf" value="csrf-1">/);
    assert.match(page, /<button type="submit" name="scope" value="here">Sign out here<\/button>/);
    assert.match(
      page,
      /<button type="submit" name="scope" value="everywhere">Sign out everywhere<\/button>/,
    );
    assert.match(page, /<a href="\/">Stay signed in<\/a>/);
  });

  test('the two sign-outs look different, and each says what it does where it is chosen', () => {
    const page = signOutPage({ user: { userId: 'u-1' }, signOutCsrf: 'csrf-1' });
    assert.match(
      page,
      /value="here">Sign out here<\/button> <p class="meta sign-out-means">Ends your session on this site only\. You stay signed in at the sign-in service/,
    );
    assert.match(
      page,
      /value="everywhere">Sign out everywhere<\/button> <p class="meta sign-out-means">Also signs you out at the sign-in service you used/,
    );
    // "Here" is the lighter button: the stylesheet draws it as a secondary one.
    assert.match(
      stylesheet,
      /form\[action="\/_sso\/logout"\] button\[value="here"\]\{background:var\(--surface\);color:var\(--primary\)\}/,
    );
    const chinese = flat(
      signOut.signOutPage({
        user: { userId: 'u-1' },
        signOutCsrf: 'csrf-1',
        page: { language: 'zh-CN', returnPath: '/_sso/login' },
      }),
    );
    assert.match(
      chinese,
      /仅在此处退出<\/button> <p class="meta sign-out-means">只结束您在本站的会话/,
    );
  });

  test('escapes every field', () => {
    const page = signOutPage({ user: { userId: EVIL, email: EVIL }, signOutCsrf: EVIL });
    assert.doesNotMatch(page, /<script/);
    assert.equal(page.split(EVIL_ESCAPED).length - 1, 2);
  });
});

describe('consentPage', () => {
  test('names the application and each claim with its value; Allow and Deny post the token', () => {
    const page = consentPage(consentInput);
    assert.match(page, /<h1>Allow this application to know who you are\?<\/h1>/);
    assert.match(page, /<strong class="application">Team wiki<\/strong>/);
    assert.match(page, /Signed in as <strong>Ann<\/strong> \(u1\)/);
    assert.match(page, /<li>your name: <strong>Ann<\/strong><\/li>/);
    assert.match(page, /<li>your e-mail address: <strong>ann@example.com<\/strong><\/li>/);
    assert.match(page, /<li>your groups: <strong>ops, dev<\/strong><\/li>/);
    assert.match(page, /<form method="post" action="\/_sso\/oidc\/consent">/);
    assert.match(page, /<input type="hidden" name="consent" value="token1">/);
    assert.match(page, /<button type="submit" name="decision" value="allow">Allow<\/button>/);
    assert.match(
      page,
      /<button type="submit" class="secondary" name="decision" value="deny"> ?Deny ?<\/button>/,
    );
  });

  test('without an e-mail address or groups, says what there is', () => {
    const page = consentPage({ ...consentInput, user: { userId: 'u1' }, groups: [] });
    assert.match(page, /<li>your name: <strong>u1<\/strong><\/li>/);
    assert.doesNotMatch(page, /e-mail/);
    assert.match(page, /<li>your groups \(you are in none\)<\/li>/);
  });

  test('escapes every field', () => {
    const page = consentPage({
      application: EVIL,
      user: { userId: EVIL, userName: EVIL, email: EVIL },
      groups: [EVIL],
      action: '/_sso/oidc/consent',
      formToken: EVIL,
    });
    assert.doesNotMatch(page, /<script/);
    assert.ok(page.split(EVIL_ESCAPED).length - 1 >= 5);
  });
});

describe('signedOutPage', () => {
  test('says so and links to sign-in without ever redirecting', () => {
    const page = signedOutPage();
    assert.match(page, /<h1>You are signed out\.<\/h1>/);
    assert.match(page, /<a class="button" href="\/_sso\/login">Sign in again<\/a>/);
    assert.doesNotMatch(page, /refresh/i);
    assert.doesNotMatch(page, /<meta http-equiv/i);
  });

  test('after signing out here, says the server session goes on', () => {
    const page = signedOutPage('here');
    assert.match(page, /<h1>You are signed out here\.<\/h1>/);
    assert.match(page, /still signed in at the server you signed in with/);
    assert.match(page, /Sign out everywhere/);
    assert.match(page, /<a class="button" href="\/_sso\/login">Sign in again<\/a>/);
    assert.doesNotMatch(page, /refresh/i);
  });
});

describe('stylesheet', () => {
  test('loads nothing and has a visible focus style', () => {
    assert.doesNotMatch(stylesheet, /@import|url\(|https?:/i);
    assert.match(stylesheet, /:focus-visible\{outline:3px solid/);
    assert.doesNotMatch(stylesheet, /outline:\s*(none|0)/);
  });
});

describe('formPostPage', () => {
  test('hidden fields escaped, one script carrying its nonce, a button without script', () => {
    const page = flat(
      formPost.formPostPage({
        action: 'https://app.example/callback',
        fields: [
          ['code', 'abc'],
          ['state', '"><script>alert(1)</script>'],
        ],
        scriptNonce: 'nonce-0123456789abcdef',
      }),
    );
    assert.match(page, /<form method="post" action="https:\/\/app\.example\/callback">/);
    assert.match(page, /<input type="hidden" name="code" value="abc">/);
    assert.match(page, /name="state" value="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
    assert.equal([...page.matchAll(/<script/g)].length, 1);
    assert.match(
      page,
      /<script nonce="nonce-0123456789abcdef"> document\.forms\[0\]\.submit\(\); <\/script>/,
    );
    assert.match(page, /<button type="submit">Continue<\/button>/);
  });
});
