import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { type SamlifyIdp, startSamlifyIdp } from '../../test/samlify-idp.ts';
import { postToAcs } from '../../test/sso-acs.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

/**
 * Our service provider against an independent IdP: samlify (apps/server/src/test/samlify-idp.ts)
 * parses our signed AuthnRequest and answers with its own signed Response. The hostile-response
 * tests stay on the hand-rolled IdP (sso.test.ts), which needs exact XML.
 */
let h: Harness;
let idp: SamlifyIdp;
let alex: string;
let configUuid: string;
const ADAM = DEMO_ADMINS.admin;

const acs = (samlResponse: string) => postToAcs(h.url, samlResponse);

/** Adam's SSO start: the URL of the IdP's sign-on. */
async function ssoStart() {
  const start = await h.post<{ redirect_url: string }>('/sso/login/saml/request/', {
    email: ADAM,
    config_uuid: configUuid,
    team_slug: 'northwind',
  });
  expect(start.status, start.text).toBe(200);
  return start;
}

/** The browser's trip: SSO start → the IdP's /sso (redirect binding) → the page that posts to the ACS. */
async function throughIdp(redirectUrl: string) {
  expect(redirectUrl.startsWith(`${idp.url}/sso?`)).toBe(true);
  const page = await fetch(redirectUrl);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const action = /action="([^"]+)"/.exec(html)?.[1];
  const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1] ?? '';
  expect(action).toBe(`${h.url}/sso/login/saml/acs/`);
  return acs(samlResponse);
}

/** The connector's test through the IdP (the tester reads the attributes), then activation. */
async function testAndActivate() {
  const testStart = await h.post<{ redirect_url: string; saml_request_id: string }>(
    '/sso/login/saml/test/request/',
    { config_uuid: configUuid },
    alex,
  );
  expect(testStart.status, testStart.text).toBe(200);
  expect(Object.fromEntries(await throughIdp(testStart.body.redirect_url))).toMatchObject({ sso_status: 'success', test: '1' });
  const status = await h.post('/sso/login/status/', { saml_request_id: testStart.body.saml_request_id }, alex);
  expect(status.body).toMatchObject({
    status: 'success',
    attributes: { name_id: ADAM, email: ADAM, name: 'Adam Admin' },
    maps_to_admin: true,
  });
  expect((status.body.checks as { passed: boolean }[]).every((c) => c.passed)).toBe(true);
  expect((await h.post('/sso/login/config/activate/', { config_uuid: configUuid }, alex)).body.config).toMatchObject({
    status: 'active',
  });
}

beforeAll(async () => {
  h = await startHarness();
  idp = await startSamlifyIdp();
  idp.user = { email: ADAM, name: 'Adam Admin' };
  alex = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
}, 60_000);
afterAll(async () => {
  await idp?.close();
  await h?.close();
});

describe('SSO against samlify as the identity provider', () => {
  test('configured from its metadata URL, tested (attributes), activated; Adam signs in via SSO', async () => {
    const created = await h.post<{ config: { config_uuid: string } }>(
      '/sso/login/config/create/',
      { config_name: 'samlify IdP', idp_type: 'generic_saml', sign_mode: 'both' },
      alex,
    );
    expect(created.status, created.text).toBe(200);
    configUuid = created.body.config.config_uuid;
    // The admin gives the IdP our SP metadata, and us the IdP's metadata URL (fetched through the SSRF guard).
    const configs = await h.post<{ service_provider: { metadata_xml: string } }>('/sso/login/configs/', {}, alex);
    // We sign every AuthnRequest, so the SP metadata says so and carries the signing certificate (samlify verifies with it).
    expect(configs.body.service_provider.metadata_xml).toContain('AuthnRequestsSigned="true"');
    expect(configs.body.service_provider.metadata_xml).toMatch(/<KeyDescriptor use="signing"/);
    idp.trustServiceProvider(configs.body.service_provider.metadata_xml);
    idp.sign = 'both';
    const updated = await h.post<{ config: { status: string; idp_entity_id: string } }>(
      '/sso/login/config/update/',
      { config_uuid: configUuid, metadata_url: `${idp.url}/metadata` },
      alex,
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.config).toMatchObject({ status: 'awaiting_test', idp_entity_id: idp.entityId });

    await testAndActivate();

    const start = await ssoStart();
    const result = await throughIdp(start.body.redirect_url);
    expect(result.get('sso_status'), result.toString()).toBe('success');
    const verified = await h.post('/sso/login/verify/token/', { token: result.get('token'), device: { type: 'browser' } });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ team_slug: 'northwind', email: ADAM });
  }, 60_000);

  test('only the assertion signed (the generic preset): re-tested, activated, signs in', async () => {
    expect((await h.post('/sso/login/config/update/', { config_uuid: configUuid, sign_mode: 'assertion' }, alex)).status).toBe(
      200,
    );
    idp.sign = 'assertion';
    await testAndActivate();
    const start = await ssoStart();
    const result = await throughIdp(start.body.redirect_url);
    expect(result.get('sso_status'), result.toString()).toBe('success');
  }, 30_000);

  test("samlify's response made out to another audience is refused with 45038 (audience check)", async () => {
    idp.audience = 'https://elsewhere.example/sp';
    try {
      const start = await ssoStart();
      const result = await throughIdp(start.body.redirect_url);
      expect(result.get('token')).toBeNull();
      expect(result.get('response_key')).toBe('45038');
      const [event] = await h.db.query<{ detail: { reason: string } }>(
        "select detail from security_events where kind = 'sign_in_failed' order by id desc limit 1",
      );
      expect(event?.detail.reason).toBe('sso_audience');
    } finally {
      idp.audience = null;
    }
  }, 30_000);

  test('samlify verifies our request signature: a tampered one is refused at the IdP', async () => {
    const start = await ssoStart();
    const url = new URL(start.body.redirect_url);
    const signature = url.searchParams.get('Signature') ?? '';
    expect(signature).not.toBe('');
    const tampered = start.body.redirect_url.replace(
      `Signature=${encodeURIComponent(signature)}`,
      `Signature=${encodeURIComponent(Buffer.from('x'.repeat(256)).toString('base64'))}`,
    );
    expect(tampered).not.toBe(start.body.redirect_url);
    const page = await fetch(tampered);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('ERR_FAILED_MESSAGE_SIGNATURE_VERIFICATION');
  }, 30_000);
});
