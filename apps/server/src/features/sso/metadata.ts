import { X509Certificate } from 'node:crypto';
import { children, elements, NS, parseUntrustedXml, pureText } from './xml.ts';

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
/** JumpCloud's exported metadata may name only the POST binding; its sign-on URL takes redirects too. */
const POST_ONLY_HOSTS = new Set(['sso.jumpcloud.com']);

interface IdentityProvider {
  entityId: string;
  ssoUrl: string;
  /** Signing certificates as PEM. */
  certificates: string[];
}

export class MetadataInvalid extends Error {}

const pemOf = (body: string) => `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`;

/**
 * Reads an identity provider's SAML metadata: its entity ID, its single sign-on address for the
 * HTTP-Redirect binding and its signing certificates. Parsed without any DTD (parseUntrustedXml);
 * an EntitiesDescriptor is read for its first identity provider. With `postFallback` (the JumpCloud
 * preset), a document that names only the HTTP-POST binding at JumpCloud's sign-on host is read for
 * that address.
 */
export function parseIdpMetadata(xml: string, options: { postFallback?: boolean } = {}): IdentityProvider {
  let doc: Document;
  try {
    doc = parseUntrustedXml(xml);
  } catch (error) {
    throw new MetadataInvalid((error as Error).message);
  }
  const entity = elements(doc.documentElement, NS.md, 'EntityDescriptor').find(
    (e) => children(e, NS.md, 'IDPSSODescriptor').length > 0,
  );
  if (!entity) throw new MetadataInvalid('no identity provider (IDPSSODescriptor) in the metadata');
  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) throw new MetadataInvalid('the identity provider has no entityID');
  const idp = children(entity, NS.md, 'IDPSSODescriptor')[0] as Element;
  const services = children(idp, NS.md, 'SingleSignOnService');
  const locationOf = (binding: string) =>
    services
      .find((s) => s.getAttribute('Binding') === binding)
      ?.getAttribute('Location')
      ?.trim();
  let ssoUrl = locationOf(REDIRECT_BINDING);
  const post = locationOf(POST_BINDING);
  if (!ssoUrl && options.postFallback && post && URL.canParse(post) && POST_ONLY_HOSTS.has(new URL(post).hostname)) ssoUrl = post;
  if (!ssoUrl) throw new MetadataInvalid('the identity provider has no single sign-on address for the HTTP-Redirect binding');
  try {
    const url = new URL(ssoUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
  } catch {
    throw new MetadataInvalid('the single sign-on address is not an http(s) URL');
  }
  const certificates: string[] = [];
  for (const key of children(idp, NS.md, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const cert of elements(key, NS.ds, 'X509Certificate')) {
      const body = (pureText(cert) ?? '').replace(/\s+/g, '');
      if (!body) continue;
      const pem = pemOf(body);
      try {
        new X509Certificate(pem);
      } catch {
        throw new MetadataInvalid('a signing certificate in the metadata cannot be read');
      }
      if (!certificates.includes(pem)) certificates.push(pem);
    }
  }
  if (certificates.length === 0) throw new MetadataInvalid('the metadata has no signing certificate');
  return { entityId, ssoUrl, certificates };
}
