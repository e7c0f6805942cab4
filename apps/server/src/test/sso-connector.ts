import { expect } from 'vitest';
import type { Harness } from './harness.ts';
import type { TestIdp } from './saml-idp.ts';
import { postToAcs } from './sso-acs.ts';

/**
 * A team's connector made active as a super admin does it in the console: created, given the
 * IdP's metadata by URL, tested through the IdP (signing in `testUser`), then activated.
 */
export async function activeConnector(h: Harness, idp: TestIdp, superAdminToken: string, testUser: string): Promise<string> {
  const created = await h.post<{ config: { config_uuid: string } }>(
    '/sso/login/config/create/',
    { config_name: `IdP ${idp.url}`, idp_type: 'generic_saml' },
    superAdminToken,
  );
  expect(created.status, created.text).toBe(200);
  const configUuid = created.body.config.config_uuid;
  const updated = await h.post(
    '/sso/login/config/update/',
    { config_uuid: configUuid, metadata_url: `${idp.url}/metadata` },
    superAdminToken,
  );
  expect(updated.status, updated.text).toBe(200);
  const test = await h.post<{ redirect_url: string }>(
    '/sso/login/saml/test/request/',
    { config_uuid: configUuid },
    superAdminToken,
  );
  expect(test.status, test.text).toBe(200);
  const answered = idp.respond(test.body.redirect_url, { user: { nameId: testUser, attributes: { email: [testUser] } } });
  expect((await postToAcs(h.url, answered.samlResponse)).get('sso_status')).toBe('success');
  const activated = await h.post('/sso/login/config/activate/', { config_uuid: configUuid }, superAdminToken);
  expect(activated.status, activated.text).toBe(200);
  return configUuid;
}
