import type { Queryable } from '@latchkey/runtime';
import { adminsRepository } from '../admins/index.ts';
import { usersRepository } from '../users/index.ts';
import { ssoRepository as repo, type SsoConfigRow } from './sso.repository.ts';

/** What the console's sign-in asks of a team's SSO; handed to the auth room by the composition root (this room builds on auth). */
export const ssoSignIn = {
  activeConfigs: (q: Queryable, teamId: string): Promise<SsoConfigRow[]> => repo.activeConfigs(q, teamId),

  /**
   * True when the team enforces SSO and has not excluded this admin (spec §6). Break-glass: a super
   * admin is never held to it while no super admin with a password is excluded (one was removed, or
   * lost the role, after enforcement went on), so the team cannot be locked out.
   */
  async enforcedFor(q: Queryable, teamId: string, userId: string): Promise<boolean> {
    const policy = await repo.policyWithActiveConnector(q, teamId);
    if (!policy?.enforce_sso || policy.excluded_admins.includes(userId)) return false;
    const scopes = (await adminsRepository.scopesIn(q, teamId, userId)) ?? [];
    if (!scopes.includes('super_admin')) return true;
    const excludedSupers = (await adminsRepository.memberships(q, teamId))
      .filter((a) => a.scopes.includes('super_admin') && policy.excluded_admins.includes(a.user_id))
      .map((a) => a.user_id);
    return (await usersRepository.findUsersByIds(q, excludedSupers)).some((u) => u.has_password);
  },
};
export type SsoSignIn = typeof ssoSignIn;
