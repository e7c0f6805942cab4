import type { Queryable } from '@latchkey/runtime';
import { adminsRepository } from '../admins/index.ts';
import { groupsRepository } from '../groups/index.ts';
import { membersRepository } from '../members/index.ts';
import { policiesRepository } from '../policies/index.ts';
import { teamRepository } from '../team/index.ts';
import { usersRepository } from '../users/index.ts';

/** A whole team's export, read from each part's owner in the caller's transaction (one snapshot). */
export const teamExport = {
  team: (q: Queryable, teamId: string) => teamRepository.exportRow(q, teamId),

  /** Administrators without anything secret: no password hash, authenticator or codes, only whether they are set. */
  async admins(q: Queryable, teamId: string) {
    const admins = await adminsRepository.list(q, teamId);
    const set = await usersRepository.credentialsSet(
      q,
      admins.map((a) => a.user_id),
    );
    return admins.map((a) => ({
      email: a.email,
      name: a.name,
      scopes: a.scopes,
      has_password: set.get(a.user_id)?.has_password ?? false,
      has_authenticator: set.get(a.user_id)?.has_authenticator ?? false,
    }));
  },

  /** Every group by name with its policy (null for none) and all its members' emails, former ones too. */
  async groups(q: Queryable, teamId: string) {
    const groups = await groupsRepository.exportList(q, teamId);
    const policies = await policiesRepository.groupPolicies(
      q,
      groups.map((g) => g.id),
    );
    // The members' emails in the database's order, each group's kept in it.
    const members = await membersRepository.emailsByIds(q, [...new Set(groups.flatMap((g) => g.member_ids))]);
    const rank = new Map(members.map((m, i) => [m.id, i]));
    return groups.map((g) => ({
      name: g.name,
      policy: policies.get(g.id)?.policy_json ?? null,
      not_enforced: policies.get(g.id)?.not_enforced_json ?? null,
      members: g.member_ids
        .filter((id) => rank.has(id))
        .sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0))
        .map((id) => members[rank.get(id) ?? 0]?.email),
    }));
  },

  teamPolicy: (q: Queryable, teamId: string) => policiesRepository.teamPolicy(q, teamId),

  /** One page of members after `afterEmail`, by email: a large team is read and written in pages. */
  membersPage: (q: Queryable, teamId: string, afterEmail: string, limit: number) =>
    membersRepository.exportPage(q, teamId, afterEmail, limit),
};
