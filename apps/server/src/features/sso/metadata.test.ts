import { beforeAll, expect, test } from 'vitest';
import { certificateBody, selfSignedRsa } from '../../platform/self-signed.ts';
import { MetadataInvalid, parseIdpMetadata } from './metadata.ts';

let cert = '';
let other = '';
beforeAll(async () => {
  cert = certificateBody((await selfSignedRsa('idp')).certificatePem);
  other = certificateBody((await selfSignedRsa('encryption')).certificatePem);
});

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

test('the shape Entra ID publishes: prefixed, RoleDescriptors first, a wrapped certificate', () => {
  const wrapped = cert.match(/.{1,76}/g)?.join('\n          ') ?? '';
  const xml = `<?xml version="1.0" encoding="utf-8"?><EntityDescriptor ID="_a" entityID="https://sts.windows.net/tenant/" xmlns="urn:oasis:names:tc:SAML:2.0:metadata"><RoleDescriptor xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="fed:SecurityTokenServiceType" protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706"/><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>
          ${wrapped}
        </X509Certificate></X509Data></KeyInfo></KeyDescriptor><SingleSignOnService Binding="${REDIRECT}" Location="https://login.microsoftonline.com/tenant/saml2"/><SingleSignOnService Binding="${POST}" Location="https://login.microsoftonline.com/tenant/saml2"/></IDPSSODescriptor></EntityDescriptor>`;
  const idp = parseIdpMetadata(xml);
  expect(idp).toMatchObject({
    entityId: 'https://sts.windows.net/tenant/',
    ssoUrl: 'https://login.microsoftonline.com/tenant/saml2',
  });
  expect(idp.certificates).toHaveLength(1);
});

test('an EntitiesDescriptor; encryption keys are not signing keys; keys without use count', () => {
  const xml = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><md:EntityDescriptor entityID="https://sp.example"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor><md:EntityDescriptor entityID="http://www.okta.com/exk1"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="encryption"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${other}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:KeyDescriptor><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="${REDIRECT}" Location="https://acme.okta.com/app/exk1/sso/saml"/></md:IDPSSODescriptor></md:EntityDescriptor></md:EntitiesDescriptor>`;
  const idp = parseIdpMetadata(xml);
  expect(idp.entityId).toBe('http://www.okta.com/exk1');
  expect(idp.certificates).toHaveLength(1);
  expect(idp.certificates[0]).toContain(cert.slice(0, 40));
});

test('refused: no redirect binding, no signing certificate, an unreadable one, a DOCTYPE', () => {
  const base = (sso: string, key: string) =>
    `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example"><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${key}${sso}</IDPSSODescriptor></EntityDescriptor>`;
  const key = (body: string, use = 'signing') =>
    `<KeyDescriptor use="${use}"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>${body}</X509Certificate></X509Data></KeyInfo></KeyDescriptor>`;
  const redirect = `<SingleSignOnService Binding="${REDIRECT}" Location="https://idp.example/sso"/>`;
  expect(() =>
    parseIdpMetadata(base(`<SingleSignOnService Binding="${POST}" Location="https://idp.example/sso"/>`, key(cert))),
  ).toThrow(/HTTP-Redirect/);
  expect(() => parseIdpMetadata(base(redirect, key(cert, 'encryption')))).toThrow(/no signing certificate/);
  expect(() => parseIdpMetadata(base(redirect, key('AAAA')))).toThrow(/cannot be read/);
  expect(() =>
    parseIdpMetadata(base(`<SingleSignOnService Binding="${REDIRECT}" Location="javascript:alert(1)"/>`, key(cert))),
  ).toThrow(MetadataInvalid);
  expect(() => parseIdpMetadata(`<!DOCTYPE x [<!ENTITY e "x">]>${base(redirect, key(cert))}`)).toThrow(/document type/);
  expect(parseIdpMetadata(base(redirect, key(cert))).ssoUrl).toBe('https://idp.example/sso');
});
