import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { certificateBody, selfSignedRsa } from '../../platform/self-signed.ts';
import { parseIdpMetadata } from './metadata.ts';
import { identityOf, type ResponseFacts } from './saml-response.ts';

/** The vendors' own metadata documents (fixtures/README.md names each source). */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const subjectOf = (pem: string) => new X509Certificate(pem).subject;

describe('each preset reads its vendor’s published metadata', () => {
  test('Microsoft Entra ID: signed document, WS-Fed role descriptors first; only the IdP signing key is read', () => {
    const idp = parseIdpMetadata(fixture('entra-id.xml'));
    expect(idp.entityId).toBe('https://sts.windows.net/ce4dd77a-0fd2-459b-a419-183305c58ae1/');
    expect(idp.ssoUrl).toBe('https://login.microsoftonline.com/ce4dd77a-0fd2-459b-a419-183305c58ae1/saml2');
    expect(idp.certificates).toHaveLength(1);
    expect(subjectOf(idp.certificates[0] as string)).toBe('CN=Microsoft Azure Federated SSO Certificate');
  });

  test('Okta: prefixed md:, certificate with spaces inside, POST listed before Redirect', () => {
    const idp = parseIdpMetadata(fixture('okta.xml'));
    expect(idp.entityId).toBe('http://www.okta.com/exkppsa1qwuFV4D7z0h7');
    expect(idp.ssoUrl).toBe('https://dev-513394.oktapreview.com/app/rstudioincdev513394_dev_1/exkppsa1qwuFV4D7z0h7/sso/saml');
    expect(idp.certificates).toHaveLength(1);
    expect(subjectOf(idp.certificates[0] as string)).toContain('O=Okta');
  });

  test('Google Workspace: the entity ID and sign-on URL carry the idpid query', () => {
    const idp = parseIdpMetadata(fixture('google-workspace.xml'));
    expect(idp.entityId).toBe('https://accounts.google.com/o/saml2?idpid=C00itr2x5');
    expect(idp.ssoUrl).toBe('https://accounts.google.com/o/saml2/idp?idpid=C00itr2x5');
    expect(subjectOf(idp.certificates[0] as string)).toContain('OU=Google For Work');
  });

  test('OneLogin: the HTTP-Redirect address, not the POST or SOAP one', () => {
    const idp = parseIdpMetadata(fixture('onelogin.xml'));
    expect(idp.entityId).toBe('https://app.onelogin.com/saml/metadata/70f84e24-3710-4991-869d-4e49b87d3a9e');
    expect(idp.ssoUrl).toBe('https://leecollege.onelogin.com/trust/saml2/http-redirect/sso/70f84e24-3710-4991-869d-4e49b87d3a9e');
    expect(subjectOf(idp.certificates[0] as string)).toContain('OU=OneLogin IdP');
  });

  test('generic SAML (Shibboleth): extensions, a key without `use`, the attribute authority ignored', () => {
    const idp = parseIdpMetadata(fixture('generic-shibboleth.xml'));
    expect(idp.entityId).toBe('https://idp.testshib.org/idp/shibboleth');
    expect(idp.ssoUrl).toBe('https://idp.testshib.org/idp/profile/SAML2/Redirect/SSO');
    expect(idp.certificates).toHaveLength(1);
  });

  describe('JumpCloud: only the POST binding in its export', () => {
    let cert = '';
    beforeAll(async () => {
      cert = certificateBody((await selfSignedRsa('JumpCloud')).certificatePem);
    });
    const withCert = () => fixture('jumpcloud.xml').replace(/TODO\s*/, cert);

    test('the export as stored (certificate left as "TODO") is refused for its certificate', () => {
      expect(() => parseIdpMetadata(fixture('jumpcloud.xml'), { postFallback: true })).toThrow(/cannot be read/);
    });
    test('the JumpCloud preset signs in at the POST address, on sso.jumpcloud.com only', () => {
      expect(() => parseIdpMetadata(withCert())).toThrow(/HTTP-Redirect/);
      const idp = parseIdpMetadata(withCert(), { postFallback: true });
      expect(idp).toMatchObject({ entityId: 'urn:auth-portal', ssoUrl: 'https://sso.jumpcloud.com/saml2/auth-portal-saml' });
      const elsewhere = withCert().replace('https://sso.jumpcloud.com/', 'https://sso.jumpcloud.example/');
      expect(() => parseIdpMetadata(elsewhere, { postFallback: true })).toThrow(/HTTP-Redirect/);
    });
  });
});

const facts = (nameId: string | null, attributes: Record<string, string[]>): ResponseFacts => ({
  inResponseTo: '_r',
  destination: null,
  responseIssuer: null,
  assertionIssuer: null,
  assertionId: '_a',
  responseSigned: false,
  assertionSigned: true,
  nameId,
  recipients: [],
  subjectInResponseTo: [],
  audiences: [],
  notBefore: null,
  notOnOrAfter: [],
  attributes,
});

describe('the tester and the ACS read each provider’s attribute names', () => {
  const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
  test('Entra ID: claim URIs; the name claim is the UPN, so the display name comes from given + surname', () => {
    const id = identityOf(
      facts('3f2a-opaque-object-id', {
        [`${CLAIMS}/emailaddress`]: ['felix@alpine.example'],
        [`${CLAIMS}/name`]: ['felix@alpine.onmicrosoft.com'],
        [`${CLAIMS}/givenname`]: ['Felix'],
        [`${CLAIMS}/surname`]: ['Braun'],
        'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups': ['7a1c…', '99b2…'],
        'http://schemas.microsoft.com/identity/claims/tenantid': ['ce4dd77a'],
      }),
      'azure',
    );
    expect(id).toMatchObject({ email: 'felix@alpine.example', name: 'Felix Braun', groups: ['7a1c…', '99b2…'] });
    expect(Object.keys(id.other)).toEqual(['http://schemas.microsoft.com/identity/claims/tenantid']);
  });
  test('the preset’s names come first: under Entra ID its email claim wins over a plain `email`', () => {
    const attributes = { email: ['other@alpine.example'], [`${CLAIMS}/emailaddress`]: ['felix@alpine.example'] };
    expect(identityOf(facts(null, attributes), 'azure').email).toBe('felix@alpine.example');
    expect(identityOf(facts(null, attributes), 'okta').email).toBe('other@alpine.example');
  });
  test('OneLogin: User.email, User.FirstName, User.LastName, memberOf', () => {
    const id = identityOf(
      facts('00u1abc', {
        'User.email': ['felix@alpine.example'],
        'User.FirstName': ['Felix'],
        'User.LastName': ['Braun'],
        memberOf: ['Engineering'],
      }),
      'onelogin',
    );
    expect(id).toMatchObject({ email: 'felix@alpine.example', name: 'Felix Braun', groups: ['Engineering'], other: {} });
  });
  test('JumpCloud: email, firstname, lastname and its memberOf group attribute', () => {
    const id = identityOf(
      facts('felix@alpine.example', {
        email: ['felix@alpine.example'],
        firstname: ['Felix'],
        lastname: ['Braun'],
        memberOf: ['Admins'],
      }),
      'jumpcloud',
    );
    expect(id).toMatchObject({ email: 'felix@alpine.example', name: 'Felix Braun', groups: ['Admins'] });
  });
  test('Okta and Google: the attribute statements their setup steps name (email, firstName, lastName, groups)', () => {
    for (const type of ['okta', 'google'] as const) {
      const id = identityOf(
        facts('felix@alpine.example', {
          email: ['felix@alpine.example'],
          firstName: ['Felix'],
          lastName: ['Braun'],
          groups: ['Admins'],
        }),
        type,
      );
      expect(id, type).toMatchObject({ email: 'felix@alpine.example', name: 'Felix Braun', groups: ['Admins'], other: {} });
    }
  });
  test('Shibboleth (generic): the eduPerson / inetOrgPerson OIDs', () => {
    const id = identityOf(
      facts(null, {
        'urn:oid:0.9.2342.19200300.100.1.3': ['felix@alpine.example'],
        'urn:oid:2.16.840.1.113730.3.1.241': ['Felix Braun'],
        'urn:oid:1.3.6.1.4.1.5923.1.5.1.1': ['staff'],
      }),
      'generic_saml',
    );
    expect(id).toMatchObject({ email: 'felix@alpine.example', name: 'Felix Braun', groups: ['staff'] });
  });
});
