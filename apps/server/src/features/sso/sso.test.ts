import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { selfSignedRsa } from '../../platform/self-signed.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { type ResponseOptions, signXml, startTestIdp, type TestIdp } from '../../test/saml-idp.ts';
import { XSW } from '../../test/saml-wrapping.ts';
import { postToAcs } from '../../test/sso-acs.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';

let h: Harness;
let idp: TestIdp;
let other: TestIdp;
let alex: string;
let configUuid: string;
const ADAM = DEMO_ADMINS.admin;

const acs = (samlResponse: string) => postToAcs(h.url, samlResponse);

const b64 = (xml: string) => Buffer.from(xml).toString('base64');

async function startFor(email: string) {
  const start = await h.post<{ redirect_url: string; saml_request_id: string }>('/sso/login/saml/request/', {
    email,
    config_uuid: configUuid,
    team_slug: 'northwind',
  });
  expect(start.status, start.text).toBe(200);
  return start.body.redirect_url;
}

/** A valid response for Adam's SSO sign-in, or one changed by the options. */
async function responseFor(options: Partial<ResponseOptions> = {}) {
  return idp.respond(await startFor(ADAM), { user: { nameId: ADAM, attributes: { email: [ADAM], groups: ['IT'] } }, ...options });
}

/** The result must be a §8 code and no sign-in token, refused by the named check (the security log says which). */
async function refused(samlResponse: string, code = '45038', check?: string) {
  const result = await acs(samlResponse);
  expect(result.get('token')).toBeNull();
  expect(result.get('response_key')).toBe(code);
  const [event] = await h.db.query<{ detail: { reason: string; message: string } }>(
    "select detail from security_events where kind = 'sign_in_failed' order by id desc limit 1",
  );
  if (check) expect(event?.detail.reason, event?.detail.message).toBe(`sso_${check}`);
  return event?.detail;
}

beforeAll(async () => {
  h = await startHarness();
  idp = await startTestIdp();
  other = await startTestIdp();
  alex = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
}, 60_000);
afterAll(async () => {
  await idp?.close();
  await other?.close();
  await h?.close();
});

describe('connector settings, test, enforcement', () => {
  test('create → metadata by URL → test (attributes shown) → activate → enforce with break-glass', async () => {
    const created = await h.post<{ config: { config_uuid: string; status: string } }>(
      '/sso/login/config/create/',
      { config_name: 'Northwind IdP', idp_type: 'generic_saml' },
      alex,
    );
    expect(created.status, created.text).toBe(200);
    expect(created.body.config.status).toBe('awaiting_metadata');
    configUuid = created.body.config.config_uuid;
    expect((await h.post('/sso/login/config/create/', { config_name: 'northwind idp', idp_type: 'okta' }, alex)).body.code).toBe(
      'conflict',
    );

    const configs = await h.post<{ service_provider: Record<string, string> }>('/sso/login/configs/', {}, alex);
    expect(configs.body.service_provider).toMatchObject({
      entity_id: `${h.url}/sso/saml/northwind`,
      acs_url: `${h.url}/sso/login/saml/acs/`,
    });
    expect(configs.body.service_provider.certificate).toContain('BEGIN CERTIFICATE');
    expect(configs.body.service_provider.metadata_xml).toContain(`Location="${h.url}/sso/login/saml/acs/"`);
    expect(configs.text).not.toContain('PRIVATE KEY');

    // Starting before metadata: 45005's saml_client_generation_failed for a test; an inactive connector is not offered.
    expect((await h.post('/sso/login/saml/test/request/', { config_uuid: configUuid }, alex)).body.code).toBe(
      'saml_client_generation_failed',
    );
    const updated = await h.post<{ config: { status: string; idp_entity_id: string } }>(
      '/sso/login/config/update/',
      { config_uuid: configUuid, metadata_url: `${idp.url}/metadata` },
      alex,
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.config).toMatchObject({ status: 'awaiting_test', idp_entity_id: idp.entityId });

    expect((await h.post('/sso/login/config/activate/', { config_uuid: configUuid }, alex)).body.code).toBe('sso_not_tested');
    expect((await h.post('/sso/login/policy/update/', { enforce_sso: true }, alex)).body.code).toBe('sso_not_tested');

    // The tester: a failing test reports the failed check, a passing one the attributes.
    const failing = await h.post<{ redirect_url: string; saml_request_id: string }>(
      '/sso/login/saml/test/request/',
      { config_uuid: configUuid },
      alex,
    );
    const bad = idp.respond(failing.body.redirect_url, {
      audience: 'https://elsewhere.example/sp',
      user: { nameId: ADAM, attributes: {} },
    });
    const badResult = await acs(bad.samlResponse);
    expect(Object.fromEntries(badResult)).toMatchObject({
      response_key: '45038',
      test: '1',
      saml_request_id: failing.body.saml_request_id,
    });
    const badStatus = await h.post<{ status: string; checks: { name: string; passed: boolean }[] }>(
      '/sso/login/status/',
      { saml_request_id: failing.body.saml_request_id },
      alex,
    );
    expect(badStatus.body.status).toBe('failed');
    expect(badStatus.body.checks.at(-1)).toEqual({ name: 'audience', passed: false });

    const test1 = await h.post<{ redirect_url: string; saml_request_id: string }>(
      '/sso/login/saml/test/request/',
      { config_uuid: configUuid },
      alex,
    );
    const pending = await h.post('/sso/login/status/', { saml_request_id: test1.body.saml_request_id }, alex);
    expect(pending.body.status).toBe('pending');
    const good = idp.respond(test1.body.redirect_url, {
      user: {
        nameId: ADAM,
        attributes: { email: [ADAM], displayName: ['Adam Admin'], groups: ['IT', 'Ops'], department: ['R&D'] },
      },
    });
    expect(Object.fromEntries(await acs(good.samlResponse))).toMatchObject({ sso_status: 'success', test: '1' });
    const status = await h.post('/sso/login/status/', { saml_request_id: test1.body.saml_request_id }, alex);
    expect(status.body).toMatchObject({
      status: 'success',
      attributes: { name_id: ADAM, email: ADAM, name: 'Adam Admin', groups: ['IT', 'Ops'], other: { department: ['R&D'] } },
      maps_to_admin: true,
    });
    expect((status.body.checks as { passed: boolean }[]).every((c) => c.passed)).toBe(true);

    expect((await h.post('/sso/login/config/activate/', { config_uuid: configUuid }, alex)).body.config).toMatchObject({
      status: 'active',
    });
    expect((await h.post('/sso/login/saml/test/request/', { config_uuid: configUuid }, alex)).body.code).toBe(
      'sso_config_already_tested',
    );

    // Break-glass: no enforcement while no super admin with a password is excluded.
    expect((await h.post('/sso/login/policy/update/', { enforce_sso: true }, alex)).body.code).toBe('sso_break_glass');
    expect(
      (await h.post('/sso/login/manage/excluded/admins/', { add_excluded_admins: ['nobody@x.example'] }, alex)).body.code,
    ).toBe('admin_not_in_team');
    const excluded = await h.post('/sso/login/manage/excluded/admins/', { add_excluded_admins: [DEMO_ADMINS.superAdmin] }, alex);
    expect(excluded.status, excluded.text).toBe(200);
    const enforced = await h.post('/sso/login/policy/update/', { enforce_sso: true }, alex);
    expect(enforced.body).toMatchObject({ enforce_sso: true, in_effect: true });
    expect(
      (await h.post('/sso/login/manage/excluded/admins/', { remove_excluded_admins: [DEMO_ADMINS.superAdmin] }, alex)).body.code,
    ).toBe('sso_break_glass');

    // Enforced: Adam's password is refused; Alex, excluded, still signs in with his.
    const adamLogin = await h.post('/api/v1/console/auth/login/', { email: ADAM, team_slug: 'northwind' });
    expect(adamLogin.body.code).toBe('sso_enforced');
    const adamPassword = await h.post('/api/v1/console/auth/verify/password/', {
      email: ADAM,
      password: DEMO_PASSWORD,
      team_slug: 'northwind',
    });
    expect(adamPassword.body.code).toBe('sso_enforced');
    expect((await h.signIn(DEMO_ADMINS.superAdmin)).token.access).toBeTruthy();
  }, 60_000);

  test('uploaded metadata: entities, a DOCTYPE or entity expansion are refused', async () => {
    const created = await h.post<{ config: { config_uuid: string } }>(
      '/sso/login/config/create/',
      { config_name: 'Spare', idp_type: 'okta' },
      alex,
    );
    const id = created.body.config.config_uuid;
    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${idp.metadataXml.replace(/^<\?xml[^>]*>/, '').replace('entityID="', 'entityID="&xxe;')}`;
    expect((await h.post('/sso/login/config/update/', { config_uuid: id, metadata_xml: xxe }, alex)).body.code).toBe(
      'sso_metadata_invalid',
    );
    const bomb = `<!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>${idp.metadataXml.replace(/^<\?xml[^>]*>/, '')}`;
    expect((await h.post('/sso/login/config/update/', { config_uuid: id, metadata_xml: bomb }, alex)).body.code).toBe(
      'sso_metadata_invalid',
    );
    expect((await h.post('/sso/login/config/update/', { config_uuid: id, metadata_xml: '<x/>' }, alex)).body.code).toBe(
      'sso_metadata_invalid',
    );
    // Through the SSRF guard: the metadata service of a cloud is never fetched.
    const ssrf = await h.post(
      '/sso/login/config/update/',
      { config_uuid: id, metadata_url: 'https://169.254.169.254/metadata' },
      alex,
    );
    expect(ssrf.status).toBe(400);
    const ok = await h.post('/sso/login/config/update/', { config_uuid: id, metadata_xml: idp.metadataXml }, alex);
    expect(ok.status, ok.text).toBe(200);
    expect((await h.post('/sso/login/config/delete/', { config_uuid: id }, alex)).body).toEqual({ code: 'deleted' });
    expect((await h.post('/sso/login/config/delete/', { config_uuid: id }, alex)).body.code).toBe('sso_not_found');
  });
});

describe('sign-in by SSO', () => {
  test('Adam signs in: ACS → one-time token → session', async () => {
    const login = await h.post<{ code: string; sso_configurations: { config_uuid: string }[] }>('/api/v1/console/auth/login/', {
      email: ADAM,
      team_slug: 'northwind',
    });
    expect(login.body.sso_configurations[0]?.config_uuid).toBe(configUuid);
    const { samlResponse } = await responseFor();
    const result = await acs(samlResponse);
    expect(result.get('sso_status')).toBe('success');
    const verified = await h.post('/sso/login/verify/token/', { token: result.get('token'), device: { type: 'browser' } });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ team_slug: 'northwind', email: ADAM });
    // Replayed: the same response again is refused.
    await refused(samlResponse, '45038', 'in_response_to');
  });

  test('§8 codes from their conditions', async () => {
    await refused(
      (await responseFor({ user: { nameId: DEMO_ADMINS.superAdmin, attributes: {} } })).samlResponse,
      '45032',
      'email',
    );
    await refused((await responseFor({ user: { nameId: null, attributes: {} } })).samlResponse, '45037', 'email');
    await refused(
      (await responseFor({ user: { nameId: 'adam', attributes: { department: ['IT'] } } })).samlResponse,
      '45031',
      'email',
    );
    await refused(
      (await responseFor({ user: { nameId: 'not-an-email@', attributes: { email: ['x@'] } } })).samlResponse,
      '45002',
      'email',
    );
    // IdP-initiated: no InResponseTo.
    const unsolicited = idp.buildResponse({
      requestId: null,
      acsUrl: `${h.url}/sso/login/saml/acs/`,
      audience: `${h.url}/sso/saml/northwind`,
      user: { nameId: ADAM, attributes: {} },
    });
    await refused(b64(unsolicited), '45044', 'in_response_to');
    const unknown = await h.post('/sso/login/saml/request/', {
      email: ADAM,
      config_uuid: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.body.code).toBe('sso_not_found');
  });
});

/** The response's DOM, for the transformations of the hostile tests. */
describe('hostile responses, each made from a valid one', () => {
  for (const [name, transform] of Object.entries(XSW)) {
    test(`${name} signature wrapping is refused`, async () => {
      // XSW1 and 2 wrap a signed Response; the others the signed assertion.
      const signResponse = name === 'XSW1' || name === 'XSW2';
      const { xml } = await responseFor({ signResponse, signAssertion: !signResponse });
      const hostile = transform(xml);
      expect(hostile).toContain(DEMO_ADMINS.superAdmin);
      await refused(b64(hostile), '45038', 'structure');
    });
  }

  test('comment injection in the NameID', async () => {
    const { xml } = await responseFor({ user: { nameId: `${ADAM}.evil.com`, attributes: {} } });
    const injected = xml.replace(`${ADAM}.evil.com`, `${ADAM}<!---->.evil.com`);
    expect(injected).not.toBe(xml);
    await refused(b64(injected), '45038', 'structure');
  });

  test('another audience, another IdP, another key, expired, unsigned, SHA-1, wrong recipient or destination', async () => {
    await refused((await responseFor({ audience: `${h.url}/sso/saml/contoso` })).samlResponse, '45038', 'audience');
    // Another team's identity provider: its own issuer and key.
    const redirect = await startFor(ADAM);
    await refused(other.respond(redirect, { user: { nameId: ADAM, attributes: {} } }).samlResponse, '45038', 'issuer');
    // Our IdP's issuer, but signed with a key it never had.
    const { privateKeyPem } = await selfSignedRsa('forger');
    await refused((await responseFor({ keyPem: privateKeyPem })).samlResponse, '45038', 'signature');
    await refused(
      (await responseFor({ notBefore: new Date(Date.now() - 3600_000), notOnOrAfter: new Date(Date.now() - 600_000) }))
        .samlResponse,
      '45038',
      'time_window',
    );
    await refused((await responseFor({ signAssertion: false })).samlResponse, '45038', 'signature');
    await refused((await responseFor({ sha1: true })).samlResponse, '45038', 'signature_algorithm');
    await refused((await responseFor({ recipient: 'https://attacker.example/acs' })).samlResponse, '45038', 'recipient');
    await refused((await responseFor({ destination: 'https://attacker.example/acs' })).samlResponse, '45038', 'destination');
  });

  test('assertion signed, but a Response signature that fails to verify', async () => {
    const { xml } = await responseFor({ signResponse: true });
    // Change the response after signing, outside the signed assertion.
    const tampered = xml.replace('Version="2.0" IssueInstant', 'Version="2.0" Consent="urn:tampered" IssueInstant');
    expect(tampered).not.toBe(xml);
    await refused(b64(tampered), '45038', 'signature');
  });

  test('XXE and entity expansion in the response', async () => {
    const { xml } = await responseFor();
    await refused(b64(`<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${xml.replace(ADAM, '&xxe;')}`), '45038', 'xml');
    await refused(b64(`<!DOCTYPE r [<!ENTITY a "${ADAM}">]>${xml.replace(ADAM, '&a;')}`), '45038', 'xml');
  });

  test('a response re-signed by our own IdP for a request of another team is refused (InResponseTo unknown)', async () => {
    const { xml } = await responseFor();
    const forged = xml.replace(/InResponseTo="[^"]+"/g, 'InResponseTo="_never_issued"');
    await refused(
      b64(
        signXml(forged.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, ''), 'Assertion', idp.privateKeyPem, idp.certificatePem),
      ),
      '45038',
      'in_response_to',
    );
  });

  test('one-time use holds when the same response arrives twice at once', async () => {
    const { samlResponse } = await responseFor();
    const results = await Promise.all([acs(samlResponse), acs(samlResponse)]);
    expect(results.filter((r) => r.get('token')).length).toBe(1);
    expect(results.filter((r) => r.get('response_key') === '45038').length).toBe(1);
  });
});
