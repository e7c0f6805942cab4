import { POLICY_CATALOGUE } from '@latchkey/contracts';
import { afterAll, beforeAll, expect } from 'vitest';
import { DEMO_ADMINS } from '../features/demo/index.ts';
import { type Harness, startHarness } from './harness.ts';

const P = '/api/v1/policy/team';

// A small world of its own inside Northwind: two groups and four members.
export const M = {
  both: 'pt.both@northwind.example',
  g2: 'pt.g2@northwind.example',
  none: 'pt.none@northwind.example',
  g1: 'pt.g1@northwind.example',
};

export interface Item {
  key: string;
  value: unknown;
  source: string;
  group_name: string | null;
  enforced: boolean;
}

/**
 * The policy tests' world: a server (its harness started before the file's tests, closed after
 * them), the demo admins signed in, and Northwind's two policy-test groups and four members, with
 * the calls the tests make on the team's policy.
 */
export function policyWorld() {
  let harness: Harness | undefined;
  const tokens = new Map<string, string>();
  const token = (who: string) => tokens.get(who) as string;
  const G: Record<'g1' | 'g2', string> = { g1: '', g2: '' };
  const h = () => harness as Harness;

  beforeAll(async () => {
    harness = await startHarness();
    for (const who of ['superAdmin', 'admin', 'integrator', 'recoveryAgent'] as const)
      tokens.set(who, (await harness.signIn(DEMO_ADMINS[who])).token.access);
    tokens.set('family', (await harness.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
    const [team] = await harness.db.query<{ id: string }>("select id from teams where slug = 'northwind'");
    const ids: Record<string, string> = {};
    for (const [k, email] of Object.entries(M)) {
      const [row] = await harness.db.query<{ id: string }>(
        'insert into members (team_id, email, name) values ($1, $2, $3) returning id',
        [team?.id, email, k],
      );
      ids[k] = row?.id as string;
    }
    for (const [g, members] of [
      ['g1', [ids.both, ids.g1]],
      ['g2', [ids.both, ids.g2]],
    ] as const) {
      const [row] = await harness.db.query<{ id: string }>('insert into groups (team_id, name) values ($1, $2) returning id', [
        team?.id,
        `Policy test ${g}`,
      ]);
      G[g] = row?.id as string;
      for (const m of members)
        await harness.db.query('insert into group_members (group_id, member_id) values ($1, $2)', [row?.id, m]);
    }
  });
  afterAll(() => harness?.close());

  const post = (path: string, body: unknown, who = 'superAdmin') => h().post(`${P}${path}`, body, token(who));

  /** Removes every removable team key, so each case starts from the catalogue defaults. */
  async function resetTeam() {
    const patch: Record<string, unknown> = {};
    for (const d of POLICY_CATALOGUE.filter((p) => !p.readonly))
      patch[d.key] = d.non_removable ? { policy: d.default } : { policy: 'auto' };
    expect((await post('/update/', { policy_json: patch })).status).toBe(200);
  }

  async function setGroup(
    g: 'g1' | 'g2',
    policy: Record<string, unknown>,
    notEnforced: Record<string, boolean> = {},
    priority?: number,
  ) {
    const res = await post('/group/update/', {
      group_id: G[g],
      policy_json: policy,
      not_enforced_json: notEnforced,
      priority_level: priority,
    });
    expect(res.status, res.text).toBe(200);
    return res.body as { group: { policy_override: boolean; priority_level: number } };
  }

  async function effective(email: string): Promise<Record<string, Item>> {
    const res = await post('/member/effective/', { email });
    expect(res.status, res.text).toBe(200);
    return Object.fromEntries((res.body as { policies: Item[] }).policies.map((p) => [p.key, p]));
  }

  return { h, P, G, token, post, resetTeam, setGroup, effective };
}
