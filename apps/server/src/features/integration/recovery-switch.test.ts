import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  for (const [role, email] of Object.entries(DEMO_ADMINS)) tokens.set(role, (await h.signIn(email)).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(() => h?.close());

const token = (who: string) => tokens.get(who) as string;
const services = async () => {
  const [row] = await h.db.query<{ services: Record<string, { enabled: boolean; status: number }> }>(
    "select h.services from hubs h join teams t on t.id = h.team_id where t.slug = 'northwind'",
  );
  return row?.services ?? {};
};

describe('recovery service switch', () => {
  const update = (enable_recovery: unknown, who = 'superAdmin') =>
    h.post('/api/v1/policy/team/recovery/service/update/', { enable_recovery }, token(who));

  test('switches recovery off and on with recovery_service_updated, keeping the other services', async () => {
    const off = await update(false);
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ code: 'recovery_service_updated', enable_recovery: false });
    expect((await services()).recovery).toEqual({ enabled: false, status: 0 });
    expect((await services()).audit).toEqual({ enabled: true, status: 2 });
    // Recovery admins' screens follow the switch (route rule: service status 2).
    const aux = await h.post<{ servers: { services: Record<string, unknown> }[] }>(
      '/api/v1/aux/services/',
      {},
      token('superAdmin'),
    );
    expect(aux.body.servers[0]?.services.recovery).toEqual({ enabled: false, status: 0 });
    expect((await update(true)).body).toEqual({ code: 'recovery_service_updated', enable_recovery: true });
    expect((await services()).recovery).toEqual({ enabled: true, status: 2 });
  });

  test('is for the super admin: admin, integrator and recovery agent are refused', async () => {
    for (const who of ['admin', 'integrator', 'recoveryAgent']) expect((await update(false, who)).status, who).toBe(403);
    expect((await services()).recovery).toEqual({ enabled: true, status: 2 });
  });

  test('needs a connected Hub and a boolean', async () => {
    const res = await update(true, 'family');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'aux_server_not_connected' });
    expect((await update('yes')).status).toBe(400);
  });
});
