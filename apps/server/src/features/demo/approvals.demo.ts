import type { Queryable } from '@latchkey/runtime';
import { hashPassword } from '../../platform/passwords.ts';
import { DEMO_PASSWORD } from './seed.ts';

/**
 * A team with two super admins for the four-eyes walk-through: one asks for a change, the other
 * approves it. Its own team, so switching its approval policy on never changes how any other
 * demo team's screens behave.
 */
export const APPROVALS_DEMO = {
  team: { slug: 'fourthcoffee', name: 'Fourth Coffee' },
  /** Asks for the changes. */
  ana: { email: 'ana@fourthcoffee.example', name: 'Ana Ruiz' },
  /** Approves them. */
  ben: { email: 'ben@fourthcoffee.example', name: 'Ben Carter' },
} as const;

/** Seeds the team once (a second call changes nothing): two super admins, a few members, Northwind's demo policy. */
export async function seedApprovalsDemo(tx: Queryable): Promise<void> {
  const { team, ana, ben } = APPROVALS_DEMO;
  const [row] = await tx.query<{ id: string }>(
    `insert into teams (slug, name, team_type, organization_type, valid_till)
     values ($1, $2, 'organization', 'enterprise', '2027-06-30') on conflict (slug) do nothing returning id`,
    [team.slug, team.name],
  );
  if (!row) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const admin of [ana, ben]) {
    const [user] = await tx.query<{ id: string }>(
      'insert into users (email, name, password_hash) values ($1, $2, $3) on conflict (email) do nothing returning id',
      [admin.email, admin.name, passwordHash],
    );
    if (user)
      await tx.query("insert into team_admins (team_id, user_id, scopes) values ($1, $2, array['super_admin'])", [
        row.id,
        user.id,
      ]);
  }
  await tx.query(
    `insert into members (team_id, email, name, usage) values ($1, $2, 'Member One', 'active'), ($1, $3, 'Member Two', 'active')`,
    [row.id, `one@${team.slug}.example`, `two@${team.slug}.example`],
  );
  await (await import('../policies/index.ts')).seedPoliciesDemo(tx, row.id, ana.email);
}
