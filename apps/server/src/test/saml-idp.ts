import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { certificateBody, selfSignedRsa } from '../platform/self-signed.ts';

/**
 * A SAML identity provider run by the tests, hand-rolled on xml-crypto rather than samlify: the
 * hostile-response tests need the exact XML (to wrap, re-sign, inject comments), and a response
 * built here by hand is independent of node-saml's own reading of it. Metadata at /metadata, the
 * HTTP-Redirect sign-on at /sso, which answers a page that posts the response to the ACS.
 */
export interface IdpUser {
  nameId: string | null;
  attributes: Record<string, string[]>;
}

export interface ResponseOptions {
  requestId: string | null;
  acsUrl: string;
  audience: string;
  user?: IdpUser;
  issuer?: string;
  destination?: string;
  recipient?: string;
  /** Raw XML for the NameID's content (comment-injection tests). */
  nameIdXml?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  signAssertion?: boolean;
  signResponse?: boolean;
  /** Sign with this key instead of the IdP's (a forged response). */
  keyPem?: string;
  sha1?: boolean;
}

export interface TestIdp {
  url: string;
  entityId: string;
  metadataXml: string;
  certificatePem: string;
  privateKeyPem: string;
  /** Who /sso signs in. */
  user: IdpUser;
  /** Options /sso applies to its responses (tests of failures in the browser). */
  overrides: Partial<ResponseOptions>;
  buildResponse(options: ResponseOptions): string;
  /** The AuthnRequest in a redirect URL: its ID and where to answer. */
  readRequest(redirectUrl: string): { id: string; acsUrl: string; issuer: string };
  /** A signed response to that request, base64 as the POST binding carries it. */
  respond(
    redirectUrl: string,
    options?: Partial<ResponseOptions>,
  ): { samlResponse: string; xml: string; acsUrl: string; requestId: string };
  close(): Promise<void>;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const id = () => `_${randomBytes(16).toString('hex')}`;

export function signXml(xml: string, local: 'Assertion' | 'Response', keyPem: string, certPem: string, sha1 = false): string {
  const sig = new SignedXml({
    privateKey: keyPem,
    publicCert: certPem,
    signatureAlgorithm: sha1 ? 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' : 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const target = local === 'Assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  sig.addReference({
    xpath: target,
    digestAlgorithm: sha1 ? 'http://www.w3.org/2000/09/xmldsig#sha1' : 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

interface TestIdpOptions {
  /** Listen on this port (the demo's fixed address); 0 or none: any free port (tests). */
  port?: number;
  /**
   * The demo (`npm start`): /sso asks which of these people to sign in instead of signing in
   * `idp.user`; the chosen email is the NameID and the email attribute.
   */
  people?: { email: string; name: string }[];
  /** The signing key pair to use (the demo keeps one across restarts); a new one otherwise. */
  key?: { privateKeyPem: string; certificatePem: string };
}

/** The sign-in page: a form that posts the response to the ACS at once. */
const postPage = (who: string, acsUrl: string, samlResponse: string) =>
  `<!doctype html><html lang="en"><head><title>Test IdP</title></head><body><p>Test IdP: signing in ${xmlEscape(who)}</p><form id="f" method="post" action="${xmlEscape(acsUrl)}"><input type="hidden" name="SAMLResponse" value="${samlResponse}"/><button type="submit">Continue</button></form><script>document.getElementById('f').submit()</script></body></html>`;

/** The demo's chooser: who signs in, for this SAML request. */
const choosePage = (redirectUrl: string, people: { email: string; name: string }[]) =>
  `<!doctype html><html lang="en"><head><title>Demo identity provider</title><meta name="viewport" content="width=device-width"></head><body style="font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem"><h1>Demo identity provider</h1><p>For trying Latchkey's SSO locally; it signs in whoever you choose, without a password.</p><form method="post" action="/sso/choose"><input type="hidden" name="request" value="${xmlEscape(redirectUrl)}"/>${people
    .map(
      (p) =>
        `<p><button type="submit" name="email" value="${xmlEscape(p.email)}">Sign in as ${xmlEscape(p.name)} (${xmlEscape(p.email)})</button></p>`,
    )
    .join('')}</form></body></html>`;

export async function startTestIdp(options: TestIdpOptions = {}): Promise<TestIdp> {
  const { privateKeyPem, certificatePem } = options.key ?? (await selfSignedRsa('Latchkey test IdP'));
  let server: Server | undefined;
  const idp: TestIdp = {
    url: '',
    entityId: '',
    metadataXml: '',
    certificatePem,
    privateKeyPem,
    user: { nameId: null, attributes: {} },
    overrides: {},
    buildResponse(o) {
      const now = new Date();
      const issuer = o.issuer ?? idp.entityId;
      const user = o.user ?? idp.user;
      const notBefore = (o.notBefore ?? new Date(now.getTime() - 30_000)).toISOString();
      const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
      const inResponse = o.requestId ? ` InResponseTo="${xmlEscape(o.requestId)}"` : '';
      const nameId =
        o.nameIdXml !== undefined
          ? `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.nameIdXml}</saml:NameID>`
          : user.nameId
            ? `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${xmlEscape(user.nameId)}</saml:NameID>`
            : '';
      const attributes = Object.entries(user.attributes);
      const statement = attributes.length
        ? `<saml:AttributeStatement>${attributes
            .map(
              ([name, values]) =>
                `<saml:Attribute Name="${xmlEscape(name)}">${values.map((v) => `<saml:AttributeValue>${xmlEscape(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`,
            )
            .join('')}</saml:AttributeStatement>`
        : '';
      let assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${now.toISOString()}"><saml:Issuer>${xmlEscape(issuer)}</saml:Issuer><saml:Subject>${nameId}<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${xmlEscape(o.recipient ?? o.acsUrl)}"${inResponse}/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${xmlEscape(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>${statement}</saml:Assertion>`;
      const key = o.keyPem ?? privateKeyPem;
      if (o.signAssertion ?? true) assertion = signXml(assertion, 'Assertion', key, certificatePem, o.sha1);
      let response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${xmlEscape(o.destination ?? o.acsUrl)}"${inResponse}><saml:Issuer>${xmlEscape(issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
      if (o.signResponse) response = signXml(response, 'Response', key, certificatePem, o.sha1);
      return response;
    },
    readRequest(redirectUrl) {
      const raw = new URL(redirectUrl).searchParams.get('SAMLRequest') ?? '';
      const xml = inflateRawSync(Buffer.from(raw, 'base64')).toString('utf8');
      return {
        id: /\sID="([^"]+)"/.exec(xml)?.[1] ?? '',
        acsUrl: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1] ?? '',
        issuer: /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '',
      };
    },
    respond(redirectUrl, options = {}) {
      const request = idp.readRequest(redirectUrl);
      const xml = idp.buildResponse({ requestId: request.id, acsUrl: request.acsUrl, audience: request.issuer, ...options });
      return { samlResponse: Buffer.from(xml).toString('base64'), xml, acsUrl: request.acsUrl, requestId: request.id };
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
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (url.pathname === '/sso' && options.people) {
      html(choosePage(url.toString(), options.people));
      return;
    }
    if (url.pathname === '/sso') {
      const { samlResponse, acsUrl } = idp.respond(url.toString(), idp.overrides);
      html(postPage(idp.user.nameId ?? '', acsUrl, samlResponse));
      return;
    }
    if (url.pathname === '/sso/choose' && req.method === 'POST' && options.people) {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk;
        if (body.length > 64 * 1024) req.destroy();
      });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const person = options.people?.find((p) => p.email === form.get('email'));
        const request = form.get('request') ?? '';
        if (!person || !URL.canParse(request)) {
          res.writeHead(400).end();
          return;
        }
        const user = { nameId: person.email, attributes: { email: [person.email], displayName: [person.name] } };
        const { samlResponse, acsUrl } = idp.respond(request, { user });
        html(postPage(person.email, acsUrl, samlResponse));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server?.once('error', reject);
    server?.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  idp.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  idp.entityId = `${idp.url}/entity`;
  idp.metadataXml = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${idp.entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="true">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(certificatePem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idp.url}/sso"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${idp.url}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  return idp;
}
