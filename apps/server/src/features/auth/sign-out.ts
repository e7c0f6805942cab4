import { recordSecurityEvent } from '../eventlogs/index.ts';
import type { AuthDeps } from './sign-in-steps.ts';

/** The security events of leaving: signing out, and switching to another team. */
export function createSignOutEvents({ db }: AuthDeps) {
  return {
    recordSignOut: (caller: { userId: string; email: string; team: { id: string } }, ip: string) =>
      recordSecurityEvent(db, { kind: 'sign_out', email: caller.email, userId: caller.userId, teamId: caller.team.id, ip }),

    /** The admin left this team for another (the console signs out with reason team_switch first). */
    recordTeamSwitch: (
      caller: { userId: string; email: string; team: { id: string; slug: string } },
      ip: string,
      toTeam: string,
    ) =>
      recordSecurityEvent(db, {
        kind: 'team_switch',
        email: caller.email,
        userId: caller.userId,
        teamId: caller.team.id,
        ip,
        detail: { from_team: caller.team.slug, to_team: toTeam },
      }),
  };
}
