import { SignJWT } from 'jose';
import { HUB_URL } from './env.ts';

/** The demo Hub's credential and shared secret, as e2e/playwright.config.ts starts it. */
const DEMO_CREDENTIAL = 'demo-hub';
const DEMO_HUB_SECRET = 'e2e-demo-hub-secret-not-for-production-0123456789';

/**
 * A member's password-manager app, talking to the demo Hub's ingestion API over real HTTP:
 * it enrols with a grant signed for the member, then calls with its device credential.
 */
export async function memberApp(email: string, o: { publicKey?: boolean } = {}) {
  const grant = await new SignJWT({ email, team_slug: 'northwind' })
    .setProtectedHeader({ alg: 'HS256', kid: DEMO_CREDENTIAL })
    .setAudience('latchkey-hub-enrolment')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(DEMO_HUB_SECRET));
  const post = async (path: string, body: unknown, bearer: string) => {
    const res = await fetch(HUB_URL + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, string>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const device = await post(
    '/api/v1/client/devices/register/',
    {
      team_slug: 'northwind',
      name: 'E2E laptop',
      os: 'Linux',
      app_version: '5.4.1',
      ...(o.publicKey ? { public_key: Buffer.from(`e2e-key-${email}`).toString('base64') } : {}),
    },
    grant,
  );
  const credential = `${device.device_id}.${device.device_secret}`;
  return {
    call: (path: string, body: unknown = {}) => post(path, body, credential),
    /** The HTTP status alone, for calls the Hub is expected to refuse. */
    status: async (path: string, body: unknown = {}) =>
      (
        await fetch(HUB_URL + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
          body: JSON.stringify(body),
        })
      ).status,
  };
}
