import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  samlEntryInput,
  unusedIdpCertificate,
} from '../../features/saml/test-support/saml-entries.js';
import { samlOf } from './saml-entry.js';
import { validateEntry } from './validate-entry.js';

/** The field of each problem the input has, sorted. */
function problemFields(input: unknown): string[] {
  const validation = validateEntry(input);
  if (validation.ok) assert.fail('the entry is valid');
  return validation.problems.map((problem) => problem.field ?? '').sort();
}

const saml = (more: Record<string, unknown>) =>
  samlEntryInput({ saml: { ...(samlEntryInput().saml as object), ...more } });

describe('entries of type saml', () => {
  test('compile with the certificate as one PEM block, and the defaults filled in', () => {
    const validation = validateEntry(samlEntryInput());
    assert.ok(validation.ok);
    const compiled = samlOf(validation.entry);
    assert.equal(compiled?.saml.idpCertificate, unusedIdpCertificate);
    assert.equal(compiled.saml.clockSkewSeconds, 60);
    assert.equal(compiled.saml.wantAssertionsSigned, true);
    assert.equal(compiled.saml.spEntityId, undefined);
    assert.deepEqual(validation.warnings, []);
  });

  test('take the bare base64 of a certificate, as metadata carries it', () => {
    const bare = unusedIdpCertificate.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ' ');
    const validation = validateEntry(saml({ idpCertificate: bare }));
    assert.ok(validation.ok);
    assert.equal(samlOf(validation.entry)?.saml.idpCertificate, unusedIdpCertificate);
  });

  test('refuse a certificate that is none, or two, and a URL that is no http(s) URL', () => {
    assert.deepEqual(
      problemFields(saml({ idpCertificate: 'not a certificate', ssoUrl: 'ftp://idp/sso' })),
      ['saml.idpCertificate', 'saml.ssoUrl'],
    );
    assert.deepEqual(
      problemFields(saml({ idpCertificate: `${unusedIdpCertificate}${unusedIdpCertificate}` })),
      ['saml.idpCertificate'],
    );
    assert.deepEqual(problemFields(saml({ ssoUrl: 'https://idp.example/sso#x' })), ['saml.ssoUrl']);
  });

  test('pasted metadata stands for the three fields; what is not metadata is refused', () => {
    const metadata =
      '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example/"/>';
    const validation = validateEntry(samlEntryInput({ saml: { idpMetadataXml: metadata } }));
    assert.ok(validation.ok, JSON.stringify(validation));
    const compiled = samlOf(validation.entry);
    assert.equal(compiled?.saml.idpMetadataXml, metadata);
    assert.equal(compiled.saml.ssoUrl, undefined);
    assert.deepEqual(problemFields(samlEntryInput({ saml: { idpMetadataXml: '<html/>' } })), [
      'saml.idpMetadataXml',
    ]);
  });

  test('need the saml block and its three fields', () => {
    assert.deepEqual(problemFields(samlEntryInput({ saml: undefined })), ['saml']);
    assert.deepEqual(
      problemFields(samlEntryInput({ saml: {} })).filter((field) => field.startsWith('saml.')),
      ['saml.idpCertificate', 'saml.idpEntityId', 'saml.ssoUrl'],
    );
  });

  test('take only adminGroups of a groupMapping, and only with a groups attribute', () => {
    assert.deepEqual(problemFields(samlEntryInput({ groupMapping: { adminGroups: ['a'] } })), [
      'saml.attributes.groups',
    ]);
    assert.deepEqual(
      problemFields(
        samlEntryInput({
          saml: { ...(samlEntryInput().saml as object), attributes: { groups: 'memberOf' } },
          groupMapping: { expression: "JSON_GET($response, 'groups')", adminGroups: ['a'] },
        }),
      ),
      ['groupMapping.expression'],
    );
    const validation = validateEntry(
      samlEntryInput({
        saml: { ...(samlEntryInput().saml as object), attributes: { groups: 'memberOf' } },
        groupMapping: { adminGroups: ['sso-admins'] },
      }),
    );
    assert.ok(validation.ok);
    assert.deepEqual(samlOf(validation.entry)?.groupMapping?.adminGroups, new Set(['sso-admins']));
  });

  test('an oauth2 entry still needs the expression of its groupMapping', () => {
    assert.equal(samlOf(validateEntryOk()), undefined);
  });
});

function validateEntryOk() {
  const validation = validateEntry({
    id: 'plain',
    name: 'Plain',
    enabled: true,
    authorizeUrl: 'https://as.example/authorize?state=${state}&redirect_uri=${redirect_uri}',
    tokenUrl: 'https://as.example/token?code=${code}',
    tokenParse: "JSON_GET($response, 'access_token')",
    userInfoUrl: 'https://as.example/me?token=${access_token}',
  });
  assert.ok(validation.ok, JSON.stringify(validation));
  const refused = validateEntry({
    id: 'plain',
    name: 'Plain',
    enabled: true,
    authorizeUrl: 'https://as.example/authorize?state=${state}&redirect_uri=${redirect_uri}',
    tokenUrl: 'https://as.example/token?code=${code}',
    tokenParse: "JSON_GET($response, 'access_token')",
    userInfoUrl: 'https://as.example/me?token=${access_token}',
    groupMapping: { adminGroups: ['a'] },
  });
  if (refused.ok) assert.fail('a groupMapping without its expression was taken');
  assert.deepEqual(
    refused.problems.map((problem) => problem.field),
    ['groupMapping.expression'],
  );
  return validation.entry;
}
