import type { Scope } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { usersRepository } from '../users/index.ts';

interface InvitationRow {
  team_id: string;
  user_id: string;
  scopes: Scope[];
}

const OPEN = 'i.accepted_at is null and i.cancelled_at is null';

/** Administrator invitations (migration 0013): only the token's hash is stored. */
export const invitationsRepository = {
  /** A new open invitation; an older open one for the same person and team is cancelled (a resend). */
  async create(
    q: Queryable,
    invitation: { teamId: string; userId: string; scopes: Scope[]; tokenHash: string; invitedBy: string; days: number },
  ): Promise<void> {
    await q.query(`update admin_invitations i set cancelled_at = now() where team_id = $1 and user_id = $2 and ${OPEN}`, [
      invitation.teamId,
      invitation.userId,
    ]);
    await q.query(
      `insert into admin_invitations (team_id, user_id, scopes, token_hash, invited_by, expires_at)
       values ($1, $2, $3, $4, $5, now() + $6 * interval '1 day')`,
      [invitation.teamId, invitation.userId, invitation.scopes, invitation.tokenHash, invitation.invitedBy, invitation.days],
    );
  },

  /** The team's open, unexpired invitations, as rows of the administrators list (by email). */
  async pending(q: Queryable, teamId: string): Promise<{ user_id: string; email: string; name: string; scopes: Scope[] }[]> {
    const open = await q.query<{ user_id: string; scopes: Scope[] }>(
      `select i.user_id, i.scopes from admin_invitations i where i.team_id = $1 and ${OPEN} and i.expires_at > now()`,
      [teamId],
    );
    const scopes = new Map(open.map((i) => [i.user_id, i.scopes]));
    const people = await usersRepository.findUsersByIds(q, [...scopes.keys()]);
    return people.map((u) => ({ user_id: u.id, email: u.email, name: u.name, scopes: scopes.get(u.id) ?? [] }));
  },

  async cancel(q: Queryable, teamId: string, userId: string): Promise<boolean> {
    const rows = await q.query(
      `update admin_invitations i set cancelled_at = now() where team_id = $1 and user_id = $2 and ${OPEN} returning 1`,
      [teamId, userId],
    );
    return rows.length > 0;
  },

  /** The live invitation of a token, without spending it. */
  async peek(q: Queryable, tokenHash: string): Promise<InvitationRow | undefined> {
    const [row] = await q.query<InvitationRow>(
      `select i.team_id, i.user_id, i.scopes from admin_invitations i
       where i.token_hash = $1 and ${OPEN} and i.expires_at > now()`,
      [tokenHash],
    );
    return row;
  },

  /** Spends the token in one statement: of two requests with it, only one gets the row. */
  async accept(q: Queryable, tokenHash: string): Promise<InvitationRow | undefined> {
    const [row] = await q.query<InvitationRow>(
      `update admin_invitations i set accepted_at = now()
       where i.token_hash = $1 and ${OPEN} and i.expires_at > now()
       returning i.team_id, i.user_id, i.scopes`,
      [tokenHash],
    );
    return row;
  },
};
