import type { AuxService, HubTokens, Scope } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, expect } from 'vitest';
import { signEnrolmentGrant } from '../features/devices/enrolment-signer.ts';
import { CREDENTIAL, createHubDb, type RunningHub, SERVER_KEY, signGrant, startHub, TEAM } from './hub-fixture.ts';

/** Registers a member's device through the ingestion API; returns its Authorization header. */
export async function registerDevice(
  hub: RunningHub,
  email: string,
  o: { publicKey?: string; name?: string } = {},
): Promise<Record<string, string>> {
  const grant = signEnrolmentGrant({ credentialId: CREDENTIAL, key: SERVER_KEY, teamSlug: TEAM, email });
  const res = await hub.post(
    '/api/v1/client/devices/register/',
    {
      team_slug: TEAM,
      name: o.name ?? 'Laptop',
      os: 'Linux',
      app_version: '5.4.1',
      ...(o.publicKey ? { public_key: o.publicKey } : {}),
    },
    { authorization: `Bearer ${grant}` },
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as { device_id: string; device_secret: string };
  return { authorization: `Bearer ${body.device_id}.${body.device_secret}` };
}

/** A console user's Hub bearer header, through the real aux-grant exchange. */
export async function consoleAuth(hub: RunningHub, scopes: Scope[] = ['super_admin'], email = 'alex@northwind.example') {
  const res = await hub.post(
    '/auth/token/',
    { team_slug: TEAM, device: { browser: 'Chromium' } },
    { authorization: `Bearer ${await signGrant({ scopes, email })}` },
  );
  expect(res.status).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as HubTokens).access}` };
}

/** Posts and returns status and body together. */
export async function send<T = Record<string, unknown>>(
  hub: RunningHub,
  path: string,
  body: unknown,
  headers: Record<string, string>,
) {
  const res = await hub.post(path, body, headers);
  return { status: res.status, body: (await res.json()) as T };
}

/**
 * A test file's own Hub: a database (Northwind with `services` switched on), the Hub on it and a
 * super admin's header, made before the file's tests and closed after them. Its fields are set
 * once the file's beforeAll ran: read them inside the tests.
 */
export function hubForFile(options: { services?: readonly AuxService[] } = {}) {
  const at = {} as { db: Db; hub: RunningHub; admin: Record<string, string> };
  beforeAll(async () => {
    at.db = await createHubDb(options);
    at.hub = await startHub(at.db);
    at.admin = await consoleAuth(at.hub);
  });
  afterAll(async () => {
    await at.hub.app.close();
    await at.db.close();
  });
  return at;
}

/**
 * As hubForFile, with two super admins of Northwind, Alex (hubForFile's admin) and Blair: for what one
 * admin sees of and may do with another's work. Its fields are set once the file's beforeAll ran.
 */
export function hubWithTwoSuperAdmins() {
  const at = hubForFile() as ReturnType<typeof hubForFile> & { alex: Record<string, string>; blair: Record<string, string> };
  beforeAll(async () => {
    at.alex = at.admin;
    at.blair = await consoleAuth(at.hub, ['super_admin'], 'blair@northwind.example');
  });
  return at;
}
