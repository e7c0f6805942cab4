import type { Queryable } from '@latchkey/runtime';

const TEAM_POLICY = {
  'mp.min_length': { policy: 14 },
  'mp.require_digits': { policy: true },
  'tfa.required': { policy: true },
  'autolock.minutes': { policy: 10 },
  'export.allowed': { policy: false },
};
const ENGINEERING = { policy_json: { 'mp.min_length': 16, 'tfa.methods': 'authenticator_or_key' }, not_enforced_json: {} };
const LEADERSHIP = {
  policy_json: { 'tfa.methods': 'security_key', 'export.allowed': true },
  not_enforced_json: { 'export.allowed': true },
};

/** Demo policies for Northwind: a team policy, two group overrides with priorities, and their history. */
export async function seedPoliciesDemo(tx: Queryable, northwind: string, actorEmail: string): Promise<void> {
  const [actor] = await tx.query<{ id: string }>('select id from users where email = $1', [actorEmail]);
  const history = (scope: string, group: { id: string; name: string } | null, before: object, after: object, daysAgo: number) =>
    tx.query(
      `insert into policy_history (team_id, actor_user_id, actor_email, scope, group_id, group_name, action, before, after, created_at)
       values ($1, $2, $3, $4, $5, $6, 'update', $7, $8, now() - $9 * interval '1 day')`,
      [
        northwind,
        actor?.id,
        actorEmail,
        scope,
        group?.id ?? null,
        group?.name ?? null,
        JSON.stringify(before),
        JSON.stringify(after),
        daysAgo,
      ],
    );
  const first = { 'mp.min_length': { policy: 12 }, 'autolock.minutes': { policy: 15 } };
  await history('team', null, { policy_json: {} }, { policy_json: first }, 30);
  await history('team', null, { policy_json: first }, { policy_json: TEAM_POLICY }, 12);
  await tx.query('insert into team_policies (team_id, policy_json) values ($1, $2)', [northwind, JSON.stringify(TEAM_POLICY)]);
  await tx.query('update teams set is_team_policy_present = true where id = $1', [northwind]);
  for (const [name, state, priority, daysAgo] of [
    ['Engineering', ENGINEERING, 1, 9],
    ['Leadership', LEADERSHIP, 2, 4],
  ] as const) {
    const [group] = await tx.query<{ id: string; name: string }>('select id, name from groups where team_id = $1 and name = $2', [
      northwind,
      name,
    ]);
    if (!group) continue;
    await tx.query('insert into group_policies (group_id, policy_json, not_enforced_json) values ($1, $2, $3)', [
      group.id,
      JSON.stringify(state.policy_json),
      JSON.stringify(state.not_enforced_json),
    ]);
    await tx.query('update groups set policy_override = true, priority_level = $2 where id = $1', [group.id, priority]);
    await history(
      'group',
      group,
      { policy_json: {}, not_enforced_json: {}, priority_level: 999999 },
      { ...state, priority_level: priority },
      daysAgo,
    );
  }
}
