import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { blamedBySampleStep, blamedByTraceStep } from './blamed-field.js';

const step = (name: string, outcome: 'ok' | 'failed', ...failed: string[]) => ({
  name,
  outcome,
  results: failed.map((label) => ({ label, outcome: 'failed' })),
});

describe('the field a failed test step blames', () => {
  it('blames nothing for a step that went well', () => {
    assert.equal(blamedByTraceStep(step('token', 'ok')), undefined);
  });

  it('blames the template of a failed call', () => {
    assert.equal(blamedByTraceStep(step('token', 'failed')), 'tokenUrl');
    assert.equal(blamedByTraceStep(step('user info', 'failed')), 'userInfoUrl');
    assert.equal(blamedByTraceStep(step('callback', 'failed')), 'authorizeUrl');
    assert.equal(blamedByTraceStep(step('extension', 'failed')), 'extensionUrl');
  });

  it("blames a SAML entry's field by the check of the Response that failed", () => {
    const saml = (code: string) => ({
      ...step('saml response', 'failed'),
      error: { code, message: '' },
    });
    assert.equal(blamedByTraceStep(saml('saml_signature_invalid')), 'saml.idpCertificate');
    assert.equal(blamedByTraceStep(saml('saml_audience_mismatch')), 'saml.spEntityId');
    assert.equal(blamedByTraceStep(saml('saml_decryption_failed')), 'saml.spCertificate');
    assert.equal(blamedByTraceStep(saml('saml_status')), 'saml.ssoUrl');
  });

  it("blames an LDAP entry's field by the operation that failed", () => {
    const ldap = (name: string, code = 'ldap_directory_error') => ({
      ...step(name, 'failed'),
      error: { code, message: '' },
    });
    assert.equal(blamedByTraceStep(ldap('service bind', 'ldap_unavailable')), 'ldap.url');
    assert.equal(blamedByTraceStep(ldap('service bind')), 'ldap.bindDn');
    assert.equal(blamedByTraceStep(ldap('user search')), 'ldap.userFilter');
    assert.equal(blamedByTraceStep(ldap('user bind', 'ldap_sign_in_failed')), undefined);
  });

  it('blames the expression that failed to read an answer', () => {
    assert.equal(
      blamedByTraceStep(step('token', 'failed', "successCondition: JSON_GET($response, 'ok')")),
      'tokenRequest.successCondition',
    );
    assert.equal(blamedByTraceStep(step('token', 'failed', 'tokenParse: x')), 'tokenParse');
    assert.equal(
      blamedByTraceStep(step('token', 'failed', 'id_token checks: signature, iss')),
      'oidc.issuer',
    );
    // A mapping line fails while its step goes on: the line still blames the parsing.
    assert.equal(
      blamedByTraceStep(step('user info', 'ok', "email = JSON_GET($response, 'mail')")),
      'userInfoParse',
    );
  });

  it('blames the parsing, not the URL, when the user could not be read from the answer', () => {
    const failed = (code: string, message: string) => ({
      ...step('user info', 'failed'),
      error: { code, message },
    });
    assert.equal(
      blamedByTraceStep(failed('userinfo_parse_failed', 'the mapping gave no userId')),
      'userInfoParse',
    );
    assert.equal(
      blamedByTraceStep(failed('sign_in_failed', 'userinfo_parse_failed: the answer is not JSON')),
      'userInfoParse',
    );
    // The call itself failing still blames its template.
    assert.equal(
      blamedByTraceStep(failed('userinfo_request_failed', 'outbound_network: GET to h failed')),
      'userInfoUrl',
    );
  });

  it('blames the calls JSON for the application token and the calls after user info', () => {
    assert.equal(blamedByTraceStep(step('app token', 'failed')), 'shapes.calls');
    assert.equal(blamedByTraceStep(step('call member', 'failed')), 'shapes.calls');
    assert.equal(blamedByTraceStep(step('something new', 'failed')), undefined);
  });

  it('blames what a sample test names, else the reader of its step', () => {
    assert.equal(
      blamedBySampleStep('token', 'tokenValues[0].expression'),
      'tokenValues[0].expression',
    );
    assert.equal(blamedBySampleStep('token', undefined), 'tokenParse');
    assert.equal(blamedBySampleStep('userinfo', undefined), 'userInfoParse');
    assert.equal(blamedBySampleStep('userinfo_call', undefined), 'shapes.calls');
    assert.equal(blamedBySampleStep('entry', undefined), undefined);
  });
});
