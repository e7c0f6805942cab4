import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { startTestIdp, type TestIdp } from '../../test/saml-idp.ts';
import { postToAcs } from '../../test/sso-acs.ts';
import { activeConnector } from '../../test/sso-connector.ts';
import { DEMO_ADMINS, SIGN_IN_DEMO } from '../demo/index.ts';

/**
 * SSO start (`/sso/login/saml/request/`) tells no one who administers a team: an admin of the
 * connector's team and anyone else get the same answer, and the call shares the email step's
 * per-client limit. Each client is its own address, behind one trusted proxy (TRUST_PROXY=1).
 */
let h: Harness;
let idp: TestIdp;
let configUuid: string;
const ADAM = DEMO_ADMINS.admin;
const STRANGER = 'nobody-here@northwind.example';

beforeAll(async () => {
  h = await startHarness({ env: { TRUST_PROXY: '1' } });
  idp = await startTestIdp();
  const alex = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  configUuid = await activeConnector(h, idp, alex, ADAM);
}, 60_000);
afterAll(async () => {
  await idp?.close();
  await h?.close();
});

/** A call from one client address, over HTTP. */
async function from(client: string, path: string, body: unknown) {
  const res = await fetch(h.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, string> };
}
const start = (client: string, email: string, teamSlug: string | undefined = 'northwind') =>
  from(client, '/sso/login/saml/request/', { email, config_uuid: configUuid, ...(teamSlug ? { team_slug: teamSlug } : {}) });

/** What an answer shows apart from its one-time values: status, fields, where it sends the browser, what it asks for. */
function shape(reply: Awaited<ReturnType<typeof start>>) {
  const redirect = reply.body.redirect_url ? new URL(reply.body.redirect_url) : null;
  const asked = reply.body.redirect_url ? idp.readRequest(reply.body.redirect_url) : null;
  return {
    status: reply.status,
    fields: Object.keys(reply.body).sort(),
    code: reply.body.code ?? null,
    goes_to: redirect ? `${redirect.origin}${redirect.pathname}` : null,
    query: redirect ? [...redirect.searchParams.keys()].sort() : null,
    acs: asked?.acsUrl ?? null,
    issuer: asked?.issuer ?? null,
  };
}

describe('SSO start does not tell admins from strangers', () => {
  test('an admin, a stranger and an admin of another team all get a redirect to the identity provider', async () => {
    const admin = await start('203.0.113.1', ADAM);
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    expect(shape(admin)).toMatchObject({ goes_to: `${idp.url}/sso`, acs: `${h.url}/sso/login/saml/acs/` });
    for (const email of [STRANGER, SIGN_IN_DEMO.olga]) {
      const other = await start('203.0.113.1', email);
      expect(shape(other), email).toEqual(shape(admin));
    }
    // Without a team named, and naming another team: the same for both again.
    expect(shape(await start('203.0.113.1', STRANGER, undefined))).toEqual(shape(await start('203.0.113.1', ADAM, undefined)));
    const elsewhere = shape(await start('203.0.113.1', ADAM, 'contoso'));
    expect(elsewhere).toMatchObject({ status: 404, code: 'sso_not_found' });
    expect(shape(await start('203.0.113.1', STRANGER, 'contoso'))).toEqual(elsewhere);
  });

  test("a stranger's start signs no one in: the IdP's answer, for them or for an admin, is 45032", async () => {
    for (const signedInAtIdp of [STRANGER, ADAM]) {
      const stranger = await start('203.0.113.2', STRANGER);
      expect(stranger.status).toBe(200);
      const answered = idp.respond(stranger.body.redirect_url as string, {
        user: { nameId: signedInAtIdp, attributes: { email: [signedInAtIdp] } },
      });
      const result = await postToAcs(h.url, answered.samlResponse);
      expect(result.get('token')).toBeNull();
      expect(result.get('response_key')).toBe('45032');
    }
  });

  test("after the email step's limit, 429 for admin and stranger alike; a stranger's start counts in that limit", async () => {
    // Twenty unknown emails at the email step: then SSO start refuses this client whoever it names.
    for (let i = 0; i < 20; i++) {
      expect((await from('203.0.113.10', '/api/v1/console/auth/login/', { email: `probe${i}@northwind.example` })).status).toBe(
        404,
      );
    }
    const admin = await start('203.0.113.10', ADAM);
    const stranger = await start('203.0.113.10', STRANGER);
    expect(admin.status).toBe(429);
    expect(shape(stranger)).toEqual(shape(admin));
    expect(admin.body.code).toBe('too_many_requests_msg');
    expect(Number(stranger.retryAfter)).toBeGreaterThan(0);

    // Strangers at SSO start fill the same counter: the email step then refuses this client too.
    for (let i = 0; i < 20; i++) expect((await start('203.0.113.11', `stranger${i}@northwind.example`)).status).toBe(200);
    expect((await start('203.0.113.11', ADAM)).status).toBe(429);
    expect((await from('203.0.113.11', '/api/v1/console/auth/login/', { email: ADAM, team_slug: 'northwind' })).status).toBe(429);
    // Another client is not held back.
    expect((await start('203.0.113.12', ADAM)).status).toBe(200);
  });
});
