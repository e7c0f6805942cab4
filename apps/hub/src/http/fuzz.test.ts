import { endpointsOf } from '@latchkey/contracts';
import { fuzzProgram } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { consoleAuth, registerDevice, send } from '../testing/clients.ts';
import { createHubDb, type RunningHub, startHub, TEAM } from '../testing/hub-fixture.ts';

/** FUZZ_RUNS=200 for a longer hunt; the default keeps this file well under a minute. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);

let hub: RunningHub;
let close: () => Promise<void>;
let admin: string;
let device: string;
let pull: string;
beforeAll(async () => {
  const db = await createHubDb();
  hub = await startHub(db, { TRUST_PROXY: 'true' }, 1_000_000);
  close = async () => {
    await hub.app.close();
    await db.close();
  };
  admin = (await consoleAuth(hub)).authorization;
  device = (await registerDevice(hub, 'alex@northwind.example')).authorization ?? '';
  // A SIEM's pull token: the events pull reads its query string only past this bearer.
  const token = await send<{ token: string }>(
    hub,
    '/audit/logs/pull/token/',
    { team_slug: TEAM, action: 'create' },
    { authorization: admin },
  );
  pull = `Bearer ${token.body.token}`;
});
afterAll(() => close?.());

let sent = 0;

// Deleting the connector last: it ends the Hub session the other calls are made in.
const endpoints = endpointsOf('hub').sort(
  (a, b) => Number(a.path.includes('delete/connector')) - Number(b.path.includes('delete/connector')),
);

test('security finding 7: no body, query or type sent to any Hub call is answered with 500', async () => {
  const report = await fuzzProgram({
    url: hub.url,
    endpoints,
    callers: [
      { name: 'anonymous' },
      { name: 'super admin', authorization: () => admin, calls: (e) => e.auth === 'hubAuth' },
      { name: 'device', authorization: () => device, calls: (e) => e.auth === 'device' },
      { name: 'pull token', authorization: () => pull, calls: (e) => e.path === '/api/v1/events/pull/' },
    ],
    numRuns: RUNS,
    seed: 20261124,
    headers: () => ({ 'x-forwarded-for': `10.${(++sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}` }),
  });
  expect(report.failures).toEqual([]);
  const count = (key: string) => report.statuses[key] ?? 0;
  // Both signed-in callers got all the way through calls, or the test proves little.
  expect(count('super admin 200'), JSON.stringify(report.statuses)).toBeGreaterThan(20);
  expect(count('super admin 401'), JSON.stringify(report.statuses)).toBeLessThan(count('super admin 200'));
  expect(count('device 200'), JSON.stringify(report.statuses)).toBeGreaterThan(5);
  expect(count('pull token 200'), JSON.stringify(report.statuses)).toBeGreaterThan(5);
}, 240_000);
