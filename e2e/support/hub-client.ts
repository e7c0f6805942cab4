import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HUB_URL } from './env.ts';

/** The demo Hub's credential, as e2e/playwright.config.ts starts it. */
const DEMO_CREDENTIAL = 'demo-hub';

/**
 * An enrolment grant as the licence server signs one for a member's app: Ed25519 with the
 * server's own key (which e2e/playwright.config.ts made in the server's data directory).
 */
function enrolmentGrant(email: string): string {
  const dataRoot = process.env.LATCHKEY_E2E_DATA as string;
  const key = createPrivateKey(readFileSync(join(dataRoot, 'server/keys/hub-signing-ed25519.pem'), 'utf8'));
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const input = `${part({ alg: 'EdDSA', typ: 'latchkey-enrolment+jwt', kid: DEMO_CREDENTIAL })}.${part({
    aud: 'latchkey-hub-enrolment',
    jti: randomUUID(),
    email,
    team_slug: 'northwind',
    iat: now,
    exp: now + 600,
  })}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}

/**
 * A member's password-manager app, talking to the demo Hub's ingestion API over real HTTP:
 * it enrols with a grant signed for the member, then calls with its device credential.
 */
export async function memberApp(email: string, o: { publicKey?: boolean } = {}) {
  const grant = enrolmentGrant(email);
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
