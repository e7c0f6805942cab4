import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import * as validator from '@authenio/samlify-node-xmllint';
import { selfSignedRsa } from '../platform/self-signed.ts';

/**
 * A second, independent SAML identity provider for the tests, built on samlify (a maintained SAML
 * library with its own parser, templates and signer) rather than hand-rolled like saml-idp.ts: it
 * proves our service provider (node-saml plus our own checks) accepts what another implementation
 * produces, not only what we wrote ourselves. Like a real IdP it is told about our service
 * provider by its metadata (`trustServiceProvider`), parses and verifies our signed AuthnRequest
 * (HTTP-Redirect at /sso), and answers a page that posts its signed Response to our ACS.
 */
export type SignMode = 'assertion' | 'response' | 'both';

export interface SamlifyUser {
  email: string;
  name: string;
}

export interface SamlifyIdp {
  url: string;
  entityId: string;
  metadataXml: string;
  /** Who /sso signs in. */
  user: SamlifyUser;
  /** What it signs (our connector's sign mode). */
  sign: SignMode;
  /** The audience its responses name instead of our entity ID (a failure test); none: the SP's. */
  audience: string | null;
  /** Registers our service provider by its metadata XML (what an admin pastes into a real IdP). */
  trustServiceProvider(metadataXml: string): void;
  /** Parses and verifies the AuthnRequest in a redirect URL, and answers it: the response and where it goes. */
  respond(redirectUrl: string): Promise<{ samlResponse: string; acsUrl: string; requestId: string }>;
  close(): Promise<void>;
}

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const BASIC = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';
const htmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// Loaded as CommonJS: samlify's exports are getters, which an ES namespace import misses under Playwright's loader.
const samlify = createRequire(import.meta.url)('samlify') as typeof import('samlify');

let validatorSet = false;

export async function startSamlifyIdp(): Promise<SamlifyIdp> {
  if (!validatorSet) {
    // samlify refuses to parse anything until a schema validator is set (XSD validation by xmllint).
    samlify.setSchemaValidator(validator);
    validatorSet = true;
  }
  const { privateKeyPem, certificatePem } = await selfSignedRsa('Latchkey samlify test IdP');
  const spMetadata = new Map<string, string>();
  let entity: ReturnType<typeof samlify.IdentityProvider> | undefined;
  let server: Server | undefined;

  /** Our SP as samlify sees it, with the signatures the connector demands. */
  const serviceProvider = (issuer: string) => {
    const xml = spMetadata.get(issuer);
    if (!xml) throw new Error(`samlify IdP: unknown service provider ${issuer}`);
    const wantAssertions = idp.sign !== 'response';
    return samlify.ServiceProvider({
      metadata: xml.replace(/WantAssertionsSigned="[^"]*"/, `WantAssertionsSigned="${wantAssertions}"`),
      wantMessageSigned: idp.sign !== 'assertion',
    });
  };

  const idp: SamlifyIdp = {
    url: '',
    entityId: '',
    metadataXml: '',
    user: { email: '', name: '' },
    sign: 'assertion',
    audience: null,
    trustServiceProvider(metadataXml) {
      const entityId = /entityID="([^"]+)"/.exec(metadataXml)?.[1];
      if (!entityId) throw new Error('samlify IdP: service provider metadata without an entityID');
      spMetadata.set(entityId, metadataXml);
    },
    async respond(redirectUrl) {
      if (!entity) throw new Error('samlify IdP: not started');
      const url = new URL(redirectUrl);
      const raw = url.searchParams.get('SAMLRequest') ?? '';
      // Whose request: samlify needs the SP before it parses, so read the issuer from the request first.
      const issuer =
        /<(?:\w+:)?Issuer[^>]*>([^<]+)</.exec(inflateRawSync(Buffer.from(raw, 'base64')).toString('utf8'))?.[1] ?? '';
      const sp = serviceProvider(issuer);
      // Parses our AuthnRequest and verifies its redirect-binding signature with our SP certificate.
      const request = await entity.parseLoginRequest(sp, 'redirect', {
        query: Object.fromEntries(url.searchParams),
        octetString: url.search
          .slice(1)
          .split('&')
          .filter((p) => !p.startsWith('Signature='))
          .join('&'),
      });
      const extracted = request.extract.request;
      const requestId = String(extracted?.id ?? '');
      const acsUrl = String(extracted?.assertionConsumerServiceUrl ?? sp.entityMeta.getAssertionConsumerService('post'));
      const user = idp.user;
      const audience = idp.audience ?? sp.entityMeta.getEntityID();
      const response = (await entity.createLoginResponse(
        sp,
        { extract: request.extract },
        'post',
        { email: user.email },
        {
          customTagReplacement: (template: string) => {
            const now = new Date();
            const later = new Date(now.getTime() + 5 * 60_000).toISOString();
            const id = `_${randomBytes(16).toString('hex')}`;
            const context = samlify.SamlLib.replaceTagsByValue(template, {
              ID: id,
              AssertionID: `_${randomBytes(16).toString('hex')}`,
              Destination: acsUrl,
              Audience: audience,
              SubjectRecipient: acsUrl,
              Issuer: idp.entityId,
              IssueInstant: now.toISOString(),
              StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
              ConditionsNotBefore: new Date(now.getTime() - 30_000).toISOString(),
              ConditionsNotOnOrAfter: later,
              SubjectConfirmationDataNotOnOrAfter: later,
              NameIDFormat: EMAIL_FORMAT,
              NameID: user.email,
              InResponseTo: requestId,
              AuthnStatement: '',
              attrEmail: user.email,
              attrDisplayName: user.name,
            });
            return { id, context };
          },
        },
      )) as { context: string };
      return { samlResponse: response.context, acsUrl, requestId };
    },
    async close() {
      await new Promise((resolve) => server?.close(resolve));
    },
  };

  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', idp.url);
    if (url.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(idp.metadataXml);
      return;
    }
    if (url.pathname === '/sso') {
      idp.respond(url.toString()).then(
        ({ samlResponse, acsUrl }) =>
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(
              `<!doctype html><html lang="en"><head><title>samlify test IdP</title></head><body><p>samlify test IdP: signing in ${htmlEscape(idp.user.email)}</p><form id="f" method="post" action="${htmlEscape(acsUrl)}"><input type="hidden" name="SAMLResponse" value="${htmlEscape(samlResponse)}"/><button type="submit">Continue</button></form><script>document.getElementById('f').submit()</script></body></html>`,
            ),
        (error: unknown) =>
          res.writeHead(400, { 'content-type': 'text/plain' }).end(`samlify IdP refused the request: ${String(error)}`),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server?.once('error', reject);
    server?.listen(0, '127.0.0.1', resolve);
  });
  idp.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  idp.entityId = `${idp.url}/entity`;
  entity = samlify.IdentityProvider({
    entityID: idp.entityId,
    privateKey: privateKeyPem,
    signingCert: certificatePem,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    // Our AuthnRequests must be signed: samlify verifies the redirect signature with our SP metadata's certificate.
    wantAuthnRequestsSigned: true,
    nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${idp.url}/sso` }],
    loginResponseTemplate: {
      context: samlify.SamlLib.defaultLoginResponseTemplate.context,
      attributes: [
        { name: 'email', valueTag: 'email', nameFormat: BASIC, valueXsiType: 'xs:string' },
        { name: 'displayName', valueTag: 'displayName', nameFormat: BASIC, valueXsiType: 'xs:string' },
      ],
    },
  });
  idp.metadataXml = entity.getMetadata();
  return idp;
}
