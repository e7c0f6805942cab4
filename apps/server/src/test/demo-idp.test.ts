import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestIdp, type TestIdp } from './saml-idp.ts';

/** The demo identity provider `npm start` runs (demo-idp.ts): the reviewer picks who signs in. */
let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp({ people: [{ email: 'felix@alpine.example', name: 'Felix Braun' }] });
});
afterAll(() => idp.close());

const request = (acs: string) =>
  encodeURIComponent(
    deflateRawSync(
      `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_req1" AssertionConsumerServiceURL="${acs}"><saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">http://127.0.0.1:8080/sso/saml/alpine</saml:Issuer></samlp:AuthnRequest>`,
    ).toString('base64'),
  );

test('/sso asks who signs in; choosing posts a signed response for that person to the ACS', async () => {
  const acs = 'http://127.0.0.1:8080/sso/login/saml/acs/';
  const redirect = `${idp.url}/sso?SAMLRequest=${request(acs)}`;
  const chooser = await (await fetch(redirect)).text();
  expect(chooser).toContain('Sign in as Felix Braun (felix@alpine.example)');

  const chosen = await fetch(`${idp.url}/sso/choose`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request: redirect, email: 'felix@alpine.example' }),
  });
  const page = await chosen.text();
  expect(page).toContain(`action="${acs}"`);
  const xml = Buffer.from(/name="SAMLResponse" value="([^"]+)"/.exec(page)?.[1] ?? '', 'base64').toString('utf8');
  expect(xml).toContain('InResponseTo="_req1"');
  expect(xml).toContain('>felix@alpine.example</saml:NameID>');
  expect(xml).toContain('<ds:Signature');
});

test('someone not offered, or no request, is refused', async () => {
  const post = (body: Record<string, string>) =>
    fetch(`${idp.url}/sso/choose`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body),
    });
  const redirect = `${idp.url}/sso?SAMLRequest=${request('http://127.0.0.1:8080/sso/login/saml/acs/')}`;
  expect((await post({ request: redirect, email: 'mallory@evil.example' })).status).toBe(400);
  expect((await post({ email: 'felix@alpine.example' })).status).toBe(400);
});
