import type { RunningSimpleSamlPhp } from './simplesamlphp.js';

/**
 * A certificate for entries of type saml that only need to validate (its
 * key is not kept: nothing it would sign is ever checked), made once with
 * `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -days 36500`.
 */
export const unusedIdpCertificate = `-----BEGIN CERTIFICATE-----
MIIBfDCCASOgAwIBAgIULH8OJUCU0Y3zS73xx4kk6WtUmGQwCgYIKoZIzj0EAwIw
EzERMA8GA1UEAwwIaWRwLnRlc3QwIBcNMjYxMTI5MDc0NjA3WhgPMjEyNjExMDUw
NzQ2MDdaMBMxETAPBgNVBAMMCGlkcC50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAEXtfMRjcPfotZC2hMdGMYQ7r6Th3ZU9odrcU19t+j2jwzYE597sBxycMp
Jr5MUEWGxk5MOgignWH3KuNDDRX/46NTMFEwHQYDVR0OBBYEFK2nPbrorMYdxUWh
unzBqMSEF2HiMB8GA1UdIwQYMBaAFK2nPbrorMYdxUWhunzBqMSEF2HiMA8GA1Ud
EwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIgbuLOsheQkOjvCmOw5nngjdQ2
l5aCk6fOJuMJs9ZsrRECIDm/zYjKslhndHrMaVgOcmWoBM5rTolN3blfaj2xVz34
-----END CERTIFICATE-----
`;

/** An entry of type saml as the admin API takes it, its identity provider nowhere. */
export function samlEntryInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'saml',
    id: 'corp-saml',
    name: 'Corp SAML',
    enabled: true,
    saml: {
      ssoUrl: 'https://idp.corp.example/sso',
      idpEntityId: 'https://idp.corp.example/metadata',
      idpCertificate: unusedIdpCertificate,
    },
    ...overrides,
  };
}

/** An entry's `saml` settings that name this SimpleSAMLphp as its identity provider. */
export function idpSettingsOf(idp: RunningSimpleSamlPhp): {
  ssoUrl: string;
  idpEntityId: string;
  idpCertificate: string;
} {
  return { ssoUrl: idp.ssoUrl, idpEntityId: idp.entityId, idpCertificate: idp.certificate };
}
