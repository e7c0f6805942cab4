import { AppError, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { recordEvent, recordSecurityEvent } from '../eventlogs/index.ts';
import { ssoRepository as repo } from './sso.repository.ts';
import type { SsoDeps } from './sso-service-provider.ts';

/**
 * Once SSO is required (enforced, with an active connector), the admins it holds keep no session
 * that did not come through SSO: the sign-in now refuses them a password or a code, so a session
 * from one must not go on refreshing until its absolute end. Returns the sessions ended.
 */
export async function endSessionsHeldToSso(tx: Queryable, teamId: string): Promise<string[]> {
  const policy = await repo.policy(tx, teamId);
  if (!policy.enforce_sso || !(await repo.connectors(tx, teamId)).some((c) => c.active)) return [];
  const admins = await repo.teamAdmins(tx, teamId);
  // The break-glass rule of the sign-in check (`ssoSignIn.enforcedFor`, sso-sign-in.ts), read the same way.
  const breakGlass = !admins.some((a) => a.scopes.includes('super_admin') && a.has_password && a.excluded);
  const held = admins.filter((a) => !a.excluded && !(breakGlass && a.scopes.includes('super_admin')));
  const ended = await repo.endSessionsNotFromSso(
    tx,
    teamId,
    held.map((a) => a.user_id),
  );
  for (const admin of held.filter((a) => ended.some((s) => s.user_id === a.user_id)))
    await recordSecurityEvent(tx, {
      kind: 'session_revoked',
      email: admin.email,
      userId: admin.user_id,
      teamId,
      detail: { reason: 'sso_required' },
    });
  return ended.map((s) => s.id);
}

/** After the change committed: the Hub sessions those console sessions opened end too (queued). */
export async function tellHubs(hubSessions: SsoDeps['hubSessions'], teamId: string, sessionIds: string[]) {
  if (sessionIds.length > 0) await hubSessions.sessionsEnded({ teamId, sessionIds });
}

/** Whether SSO is enforced, and which admins are excluded from it (break-glass). */
export function createSsoEnforcement({ db, hubSessions }: Pick<SsoDeps, 'db' | 'hubSessions'>) {
  async function policyOf(teamId: string) {
    const [policy, admins, connectors] = await Promise.all([
      repo.policy(db, teamId),
      repo.teamAdmins(db, teamId),
      repo.connectors(db, teamId),
    ]);
    return {
      enforce_sso: policy.enforce_sso,
      in_effect: policy.enforce_sso && connectors.some((c) => c.active),
      admins: admins.map((a) => ({ email: a.email, name: a.name, scopes: a.scopes, excluded: a.excluded })),
    };
  }

  /** Break-glass: with enforcement on, a super admin who signs in with a password stays excluded. */
  async function assertBreakGlass(tx: Queryable, teamId: string, enforce: boolean, excluded: string[]) {
    if (!enforce) return;
    const admins = await repo.teamAdmins(tx, teamId);
    const ok = admins.some((a) => a.scopes.includes('super_admin') && a.has_password && excluded.includes(a.user_id));
    if (!ok)
      throw new AppError(
        'sso_break_glass',
        'While SSO is enforced, at least one super admin who signs in with a password must stay excluded, so the team can never be locked out.',
      ).shows('sso.break_glass');
  }

  return {
    policy: (caller: Caller) => policyOf(caller.team.id),

    async setEnforce(caller: Caller, enforce: boolean) {
      const ended = await db.transaction(async (tx) => {
        await repo.lockPolicy(tx, caller.team.id);
        const policy = await repo.policy(tx, caller.team.id);
        if (enforce && !(await repo.connectors(tx, caller.team.id)).some((c) => c.active && c.tested_at))
          throw new AppError('sso_not_tested', 'SSO can be enforced once a connector has passed its test and is active.').shows(
            'sso.enforce_needs_test',
          );
        await assertBreakGlass(tx, caller.team.id, enforce, policy.excluded_admins);
        await repo.savePolicy(tx, caller.team.id, enforce, policy.excluded_admins);
        // The switch itself is an event: "Require SSO" switched off is what an alert rule watches for.
        if (policy.enforce_sso !== enforce)
          await recordEvent(tx, {
            teamId: caller.team.id,
            actor: caller.email,
            activity: enforce ? 'sso.require_sso_enabled' : 'sso.require_sso_disabled',
            component: 'sso',
            target: 'team',
          });
        return endSessionsHeldToSso(tx, caller.team.id);
      });
      await tellHubs(hubSessions, caller.team.id, ended);
      return policyOf(caller.team.id);
    },

    async excluded(caller: Caller, add: string[], remove: string[]) {
      const ended = await db.transaction(async (tx) => {
        await repo.lockPolicy(tx, caller.team.id);
        const policy = await repo.policy(tx, caller.team.id);
        const admins = await repo.teamAdmins(tx, caller.team.id);
        const idOf = (email: string) => {
          const admin = admins.find((a) => a.email.toLowerCase() === email.toLowerCase());
          if (!admin)
            throw new AppError('admin_not_in_team', `${email} is not an admin of this team.`).shows('sso.not_an_admin', {
              email,
            });
          return admin.user_id;
        };
        const removing = new Set(remove.map(idOf));
        const next = [...new Set([...policy.excluded_admins, ...add.map(idOf)])].filter((id) => !removing.has(id));
        await assertBreakGlass(tx, caller.team.id, policy.enforce_sso, next);
        await repo.savePolicy(tx, caller.team.id, policy.enforce_sso, next);
        // An admin no longer excluded while SSO is required is held to it from now on.
        return endSessionsHeldToSso(tx, caller.team.id);
      });
      await tellHubs(hubSessions, caller.team.id, ended);
      return policyOf(caller.team.id);
    },
  };
}
