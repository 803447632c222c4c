import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCertificateChain } from '../../../test-support/certificate-chain.js';

export interface CertificateFiles {
  /** The certificate authority, for SSOGATE_CA_FILE. */
  readonly caFile: string;
  readonly certificate: string;
  readonly key: string;
  remove(): Promise<void>;
}

/**
 * A private CA and a certificate it signed for localhost and 127.0.0.1
 * (or the names of `subjectAltName`, in openssl's words), valid for `days`
 * from now (-1: expired yesterday), in a folder of its own
 * (writeCertificateChain).
 */
export async function makeCertificates(
  days: number,
  subjectAltName = 'DNS:localhost,IP:127.0.0.1',
): Promise<CertificateFiles> {
  const folder = await mkdtemp(join(tmpdir(), 'ssogate-doctor-tls-'));
  const at = (name: string): string => join(folder, name);
  writeCertificateChain(folder, {
    caName: 'ssogate test CA',
    caDays: 30,
    commonName: 'localhost',
    subjectAltName,
    days,
  });
  return {
    caFile: at('ca.pem'),
    certificate: await readFile(at('cert.pem'), 'utf8'),
    key: await readFile(at('key.pem'), 'utf8'),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

export interface ProviderOptions {
  /** Added to this clock for the Date header the provider sends. */
  readonly dateOffsetMs?: number;
  /** The status of the key set's answer (200 with a key by default). */
  readonly keySetStatus?: number;
}

export interface TlsProvider {
  /** https://localhost:PORT, the issuer of its discovery document. */
  readonly issuer: string;
  close(): Promise<void>;
}

/** An OpenID Provider's metadata over TLS on loopback: discovery and key set. */
export async function startTlsProvider(
  certificates: CertificateFiles,
  options: ProviderOptions = {},
): Promise<TlsProvider> {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'ES256' };
  let issuer = '';
  const server = createServer(
    { cert: certificates.certificate, key: certificates.key },
    (request: IncomingMessage, response: ServerResponse) => {
      // Node sets Date itself; a provider with a wrong clock sends its own.
      response.sendDate = false;
      response.setHeader('date', new Date(Date.now() + (options.dateOffsetMs ?? 0)).toUTCString());
      response.setHeader('content-type', 'application/json');
      if (request.url === '/.well-known/openid-configuration') {
        response.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            userinfo_endpoint: `${issuer}/userinfo`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ['code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['ES256'],
          }),
        );
      } else if (request.url === '/jwks') {
        response.statusCode = options.keySetStatus ?? 200;
        response.end(
          response.statusCode === 200 ? JSON.stringify({ keys: [jwk] }) : '{"error":"forbidden"}',
        );
      } else {
        response.statusCode = 404;
        response.end('{}');
      }
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
