import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CertificateChainRequest {
  /** The private CA's common name, and how many days it lasts. */
  readonly caName: string;
  readonly caDays: number;
  /** The server certificate's common name, its names and addresses (openssl's subjectAltName), and its days. */
  readonly commonName: string;
  readonly subjectAltName: string;
  /** -1: expired yesterday. */
  readonly days: number;
}

/**
 * A private CA and a server certificate it signed, both on P-256, made by
 * the system's openssl so the chain is what a real server presents. Writes
 * into `folder`, which must exist: ca.pem and ca.key (the CA), key.pem and
 * cert.pem (the server's).
 */
export function writeCertificateChain(folder: string, chain: CertificateChainRequest): void {
  const at = (name: string): string => join(folder, name);
  // Quiet unless it fails: execFileSync's error then carries what openssl said.
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'pipe' });
  };
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-subj',
    `/CN=${chain.caName}`,
    '-days',
    String(chain.caDays),
  );
  openssl(
    'req',
    ...ecKey,
    '-keyout',
    at('key.pem'),
    '-out',
    at('cert.csr'),
    '-subj',
    `/CN=${chain.commonName}`,
  );
  writeFileSync(at('cert.ext'), `subjectAltName=${chain.subjectAltName}\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    at('cert.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-days',
    String(chain.days),
    '-extfile',
    at('cert.ext'),
    '-out',
    at('cert.pem'),
  );
}
