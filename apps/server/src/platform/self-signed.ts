// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n') ?? ''
  }\n-----END ${label}-----\n`;

/**
 * An RSA-2048 key pair and a self-signed X.509 certificate for it (SHA-256): what a SAML service
 * provider publishes in its metadata to sign its requests. The certificate only carries the public
 * key; nobody checks its issuer, the identity provider pins it.
 */
export async function selfSignedRsa(commonName: string, years = 10): Promise<{ privateKeyPem: string; certificatePem: string }> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + years * 365 * 24 * 3600_000);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: `CN=${commonName.replace(/[,=+<>#;"\\]/g, ' ')}`,
    notBefore,
    notAfter,
    signingAlgorithm: RSA,
    keys,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  return {
    privateKeyPem: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certificatePem: certificate.toString('pem'),
  };
}

/** The base64 body of a PEM certificate (what SAML metadata's X509Certificate holds). */
export const certificateBody = (certificatePem: string): string =>
  certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
