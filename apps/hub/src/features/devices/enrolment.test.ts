import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../testing/clients.ts';
import { CREDENTIAL, createHubDb, type RunningHub, SERVER_KEY, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { signEnrolmentGrant } from './enrolment-signer.ts';

/** An enrolment grant registers one device, once: a grant that leaks from an app enrols nothing more. */
let db: Db;
let hub: RunningHub;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

const register = (grant: string, name: string) =>
  send<{ device_id?: string; code?: string; description?: string }>(
    hub,
    '/api/v1/client/devices/register/',
    { team_slug: TEAM, name, os: 'Linux', app_version: '5.4.1' },
    { authorization: `Bearer ${grant}` },
  );
const devicesOf = async (email: string) =>
  (await db.query<{ n: number }>('select count(*)::int as n from devices where email = $1', [email]))[0]?.n;

describe('an enrolment grant is single use', () => {
  it('registers one device; the same grant again is refused, saying it was used', async () => {
    const email = 'once@northwind.example';
    const grant = signEnrolmentGrant({ credentialId: CREDENTIAL, key: SERVER_KEY, teamSlug: TEAM, email });
    expect((await register(grant, 'Phone')).status).toBe(200);
    const again = await register(grant, 'Laptop');
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('unauthorized');
    expect(again.body.description).toMatch(/already been used/);
    expect(await devicesOf(email)).toBe(1);
    // A new grant for the same member enrols the next device.
    const next = signEnrolmentGrant({ credentialId: CREDENTIAL, key: SERVER_KEY, teamSlug: TEAM, email });
    expect((await register(next, 'Laptop')).status).toBe(200);
    expect(await devicesOf(email)).toBe(2);
  });

  it('used by two apps at once: exactly one device is registered', async () => {
    const email = 'race@northwind.example';
    const grant = signEnrolmentGrant({ credentialId: CREDENTIAL, key: SERVER_KEY, teamSlug: TEAM, email });
    const replies = await Promise.all([register(grant, 'Phone'), register(grant, 'Tablet'), register(grant, 'Laptop')]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    expect(await devicesOf(email)).toBe(1);
  });
});
