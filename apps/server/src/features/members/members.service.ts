import { randomUUID } from 'node:crypto';
import type { Member, MemberFilters } from '@latchkey/contracts';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import { recordMemberEvents } from './member-events.ts';
import { type MemberQuery, type MemberRow, membersRepository as repo } from './members.repository.ts';

const toMember = (r: MemberRow): Member => ({
  email: r.email,
  name: r.name,
  licensed: r.licensed,
  usage: r.usage,
  status: r.status,
  onboarded_at: r.onboarded_at.toISOString(),
  last_active_at: r.last_active_at?.toISOString() ?? null,
  source: r.source,
});

const unique = (emails: string[]): string[] => [...new Set(emails)];

/** A CSV cell: quoted, and a leading formula character neutralised (spreadsheet injection). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The licences a request may take: never above what is available (spec §5). */
export function assertLicencesAvailable(total: number, used: number, wanted: number): void {
  if (total < 0 || wanted <= 0) return;
  const available = Math.max(0, total - used);
  if (wanted > available) {
    throw new AppError(
      'licence_limit_exceeded',
      `Not enough licences: ${wanted} needed, ${available} available. Buy more licences or revoke unused ones.`,
    ).shows('errors.not_enough_licences', { wanted, available });
  }
}

/** Spec §2: the hub authentication filter exists only when the capability check passes (a connected Hub). */
function assertFilterAllowed(caller: Caller, filters: MemberFilters): void {
  if (filters.hub_authentication && !caller.access.hubEnabled) {
    throw new AppError('invalid_input', 'Filtering by Hub authentication needs a connected Hub.');
  }
}

/**
 * What the members list needs from rooms that read members themselves (features/team counts them,
 * features/devices reports on them), so the composition root wires them and no cycle forms.
 */
export interface MembersDeps {
  /** The team's licence count, locked for the rest of the transaction. */
  lockLicences(q: Queryable, teamId: string): Promise<{ total: number; used: number }>;
  /** Says in the team's log when taking `taken` of the locked licences brought them to nearly used up. */
  recordLicencesTaken(q: Queryable, teamId: string, licences: { total: number; used: number }, taken: number): Promise<void>;
  /** The team's members with a Hub-authenticated device. */
  hubAuthenticatedMembers(q: Queryable, teamId: string): Promise<string[]>;
}

export function createMembersService(db: Db, mail: MailOutbox, deps: MembersDeps) {
  /** The filters as the repository takes them, once the caller may use them. */
  const query = async (caller: Caller, filters: MemberFilters): Promise<MemberQuery> => {
    assertFilterAllowed(caller, filters);
    if (!filters.hub_authentication) return filters;
    return { ...filters, hubAuthenticated: await deps.hubAuthenticatedMembers(db, caller.team.id) };
  };

  const missing = (wanted: string[], found: MemberRow[]) => {
    const have = new Set(found.map((m) => m.email));
    const absent = wanted.filter((e) => !have.has(e));
    if (absent.length > 0)
      throw new AppError('member_not_found', `Not a member of this team: ${absent.join(', ')}.`).shows('errors.not_members', {
        emails: absent.join(', '),
      });
  };

  /** One mail per member, queued in the invitation's transaction: sent if and only if it commits. */
  const queueInvitations = async (tx: Queryable, caller: Caller, emails: string[]) => {
    // This call's invitations: a mail each, whatever other calls send the same member.
    const call = randomUUID();
    for (const to of emails) {
      await mail.send(
        tx,
        {
          to,
          subject: `You're invited to ${caller.team.name} on Latchkey`,
          text: `${caller.email} invited you to join ${caller.team.name} on Latchkey, your team's password manager.\n\nInstall the Latchkey app and sign in with ${to} to accept.`,
        },
        `invitation:${caller.team.id}:${to}:${call}`,
      );
    }
  };

  return {
    async page(caller: Caller, filters: MemberFilters, after: string | null | undefined, pageSize: number) {
      // One row more than the page tells whether another page follows, without counting.
      const rows = await repo.page(db, caller.team.id, await query(caller, filters), after, pageSize + 1);
      const results = rows.slice(0, pageSize).map(toMember);
      return { results, next_cursor: rows.length > pageSize ? (results.at(-1)?.email ?? null) : null };
    },

    async count(caller: Caller, filters: MemberFilters) {
      return { total: await repo.count(db, caller.team.id, await query(caller, filters)) };
    },

    async exportCsv(caller: Caller, filters: MemberFilters) {
      const rows = (await repo.all(db, caller.team.id, await query(caller, filters))).map(toMember);
      const header = ['email', 'name', 'status', 'licensed', 'app_usage', 'onboarded_at', 'last_active_at'];
      const lines = rows.map((m) =>
        [m.email, m.name, m.status, m.licensed ? 'yes' : 'no', m.usage, m.onboarded_at, m.last_active_at ?? '']
          .map(csvCell)
          .join(','),
      );
      await recordMemberEvents(db, caller.team.id, caller.userId, 'members_exported', [caller.email], { count: rows.length });
      return { csv: `${[header.join(','), ...lines].join('\r\n')}\r\n`, count: rows.length };
    },

    async invite(caller: Caller, emails: string[]) {
      const wanted = unique(emails);
      const invited = await db.transaction(async (tx) => {
        const existing = await repo.current(tx, caller.team.id, wanted);
        if (existing.length > 0) {
          throw new AppError('member_already_exists', `Already in the team: ${existing.map((m) => m.email).join(', ')}.`).shows(
            'errors.already_members',
            { emails: existing.map((m) => m.email).join(', ') },
          );
        }
        const licences = await deps.lockLicences(tx, caller.team.id);
        assertLicencesAvailable(licences.total, licences.used, wanted.length);
        await deps.recordLicencesTaken(tx, caller.team.id, licences, wanted.length);
        const rows = await repo.invite(tx, caller.team.id, wanted);
        await recordMemberEvents(tx, caller.team.id, caller.userId, 'member_invited', rows);
        await queueInvitations(tx, caller, rows);
        return rows;
      });
      return { invited };
    },

    async resendInvite(caller: Caller, emails: string[]) {
      const wanted = unique(emails);
      await db.transaction(async (tx) => {
        const found = await repo.current(tx, caller.team.id, wanted);
        missing(wanted, found);
        const joined = found.filter((m) => m.status !== 'invited');
        if (joined.length > 0) {
          throw new AppError(
            'invalid_input',
            `Already joined, no invitation to resend: ${joined.map((m) => m.email).join(', ')}.`,
          ).shows('errors.already_joined', { emails: joined.map((m) => m.email).join(', ') });
        }
        await repo.touchInvited(tx, caller.team.id, wanted);
        await recordMemberEvents(tx, caller.team.id, caller.userId, 'member_invitation_resent', wanted);
        await queueInvitations(tx, caller, wanted);
      });
      return { code: 'updated' as const };
    },

    async licence(caller: Caller, emails: string[], action: 'assign' | 'revoke') {
      const wanted = unique(emails);
      await db.transaction(async (tx) => {
        const found = await repo.current(tx, caller.team.id, wanted);
        missing(wanted, found);
        if (action === 'assign') {
          const licences = await deps.lockLicences(tx, caller.team.id);
          const taking = found.filter((m) => !m.licensed).length;
          assertLicencesAvailable(licences.total, licences.used, taking);
          await deps.recordLicencesTaken(tx, caller.team.id, licences, taking);
        }
        const changed = await repo.setLicensed(tx, caller.team.id, wanted, action === 'assign');
        await recordMemberEvents(
          tx,
          caller.team.id,
          caller.userId,
          `licence_${action === 'assign' ? 'assigned' : 'revoked'}`,
          changed,
        );
      });
      return { code: 'updated' as const };
    },

    async status(caller: Caller, emails: string[], action: 'suspend' | 'restore') {
      const wanted = unique(emails);
      await db.transaction(async (tx) => {
        const found = await repo.current(tx, caller.team.id, wanted);
        missing(wanted, found);
        const changed =
          action === 'suspend'
            ? await repo.setStatus(tx, caller.team.id, wanted, 'active', 'suspended')
            : await repo.setStatus(tx, caller.team.id, wanted, 'suspended', 'active');
        await recordMemberEvents(
          tx,
          caller.team.id,
          caller.userId,
          `member_${action === 'suspend' ? 'suspended' : 'restored'}`,
          changed,
        );
      });
      return { code: 'updated' as const };
    },

    async remove(caller: Caller, emails: string[]) {
      const wanted = unique(emails);
      await db.transaction(async (tx) => {
        const found = await repo.current(tx, caller.team.id, wanted);
        missing(wanted, found);
        const removed = await repo.deboard(tx, caller.team.id, wanted);
        await recordMemberEvents(tx, caller.team.id, caller.userId, 'member_removed', removed);
      });
      return { code: 'updated' as const };
    },
  };
}
