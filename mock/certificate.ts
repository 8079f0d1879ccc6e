/**
 * The certificate `--tls` serves: a CA made at start and a server certificate it signs for the names served. A client trusts the CA's file (the ready line
 * names it) as any private CA, nothing else changed. Made with @peculiar/x509 over node's WebCrypto: no ASN.1 here.
 *
 * Two certificates rather than one self-signed: strict clients (Python 3.13's default context, Go, Java) refuse a CA certificate as a server's, and a leaf
 * without an authority key identifier; mkcert and the real service's chain have this shape too.
 *
 * Loaded only with `--tls` (mock/cli.ts imports it on demand): the mock without TLS starts without it.
 */
import 'reflect-metadata';
import { isIP } from 'node:net';
import { KeyObject, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/** PEM texts of a server certificate, its key, and the CA that signed it. */
export type MockCertificate = { readonly cert: string; readonly key: string; readonly caCert: string };

/** ECDSA P-256 with SHA-256: accepted by every TLS stack in use, and made in milliseconds (an RSA key takes a second). */
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** Valid from a day before start (a client whose clock is behind still accepts it) for a year: no mock runs that long. */
const VALIDITY = { beforeMs: DAY_MS, afterMs: 365 * DAY_MS } as const;

/** A DN value: the names come from the user's flags, so characters with a meaning in a DN are escaped. */
function cn(value: string): string {
  return `CN=${value.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)}`;
}

/**
 * A CA and a server certificate for `names` (DNS names and IP addresses, the first one also its common name), valid around `nowMs` (the mock's clock at start).
 */
export async function makeCertificate(names: readonly string[], nowMs: number): Promise<MockCertificate> {
  const first = names[0];
  if (first === undefined) throw new RangeError('A certificate needs at least one name.');
  const notBefore = new Date(nowMs - VALIDITY.beforeMs);
  const notAfter = new Date(nowMs + VALIDITY.afterMs);
  const caKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: `${cn(`lp-mock CA ${new Date(nowMs).toISOString()}`)}, O=lp-mock`,
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const server = await x509.X509CertificateGenerator.create({
    subject: `${cn(first)}, O=lp-mock`,
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((name) => (isIP(name) ? { type: 'ip', value: name } : { type: 'dns', value: name }))),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
    ],
  });
  return { cert: server.toString('pem'), key: KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }) as string, caCert: ca.toString('pem') };
}
