import { AUDIT_POLICY_DEFAULTS } from '@latchkey/contracts';
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
const setService = (name: string, state: { enabled: boolean; status: number }) =>
  h.db.query(
    "update hubs set services = jsonb_set(services, $1, $2::jsonb) where team_id = (select id from teams where slug = 'northwind')",
    [`{${name}}`, JSON.stringify(state)],
  );

describe('audit policy', () => {
  const auditPolicy = async () => {
    const res = await h.post('/api/v1/policy/team/audit/policy/', {}, token('superAdmin'));
    expect(res.status, res.text).toBe(200);
    return (res.body as { policy: Record<string, unknown> }).policy;
  };
  const setTeamPolicy = async (policy_json: Record<string, unknown>) => {
    const res = await h.post('/api/v1/policy/team/update/', { policy_json }, token('superAdmin'));
    expect(res.status, res.text).toBe(200);
  };

  test("follows the team's password policy: its minimum length, character classes, expiry and breach check", async () => {
    await setTeamPolicy({
      'mp.min_length': { policy: 16 },
      'mp.require_symbols': { policy: true },
      'mp.require_uppercase': { policy: false },
      'mp.expiry_days': { policy: 90 },
      'mp.block_breached': { policy: false },
    });
    expect(await auditPolicy()).toEqual({
      ...AUDIT_POLICY_DEFAULTS,
      weak_below_length: 16,
      require_symbols: true,
      require_digits: true, // the demo team's own rule, left as it was
      old_password_days: 90,
      flag_breached: false,
    });

    await setTeamPolicy({ 'mp.min_length': { policy: 20 }, 'mp.expiry_days': { policy: 0 } });
    const next = await auditPolicy();
    expect(next.weak_below_length).toBe(20);
    // No expiry: a password counts as old after the audit's default age.
    expect(next.old_password_days).toBe(AUDIT_POLICY_DEFAULTS.old_password_days);
  });

  test('an entry limited to some members does not change the team-wide yardstick', async () => {
    const [member] = await h.db.query<{ email: string }>(
      "select email from members where team_id = (select id from teams where slug = 'northwind') order by email limit 1",
    );
    await setTeamPolicy({ 'mp.min_length': { policy: 30, include: [member?.email] } });
    expect((await auditPolicy()).weak_below_length).toBe(AUDIT_POLICY_DEFAULTS.weak_below_length);
  });

  test('admin, integrator and recovery agent are refused', async () => {
    for (const who of ['admin', 'integrator', 'recoveryAgent']) {
      const res = await h.post('/api/v1/policy/team/audit/policy/', {}, token(who));
      expect(res.status, who).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden', description: 'Not allowed (role).' });
    }
  });

  test('needs the audit service switched on', async () => {
    await setService('audit', { enabled: false, status: 0 });
    try {
      const res = await h.post('/api/v1/policy/team/audit/policy/', {}, token('superAdmin'));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ description: 'Not allowed (service).' });
    } finally {
      await setService('audit', { enabled: true, status: 2 });
    }
  });
});
