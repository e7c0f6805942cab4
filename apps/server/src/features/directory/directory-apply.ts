import { randomUUID } from 'node:crypto';
import type { ActionName, DirectoryChange } from '@latchkey/contracts';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import type { MailOutbox } from '../../platform/mail.ts';
import { teamAdminEmails } from '../admins/index.ts';
import {
  assertLicencesAvailable,
  type DirectoryMemberRecord,
  directoryMembersRepository as members,
  recordMemberEventsMany,
} from '../members/index.ts';
import { lockLicences, recordLicencesTaken, teamRepository } from '../team/index.ts';
import { createGroupApplier, type RecordEvent } from './directory-apply-groups.ts';

/** A change the server will not make; the whole batch is refused with it, and nothing of it is written. */
const refused = (index: number, why: string) =>
  new AppError('directory_change_refused', `Change ${index + 1} refused: ${why} Preview the sync again.`);

type Team = { id: string; name: string };

/**
 * One batch of a directory sync, applied in one transaction through the same rules as the console:
 * licences are locked and counted, administrators and members another source owns (SCIM) are never
 * changed, every change is an event with the actor "directory sync". Changes that find things as
 * they should be already count as unchanged, so a batch sent twice changes nothing the second time.
 * Its events, invitation mails and group writes are gathered and written a few statements in all.
 */
export async function applyDirectoryBatch(
  db: Db,
  mail: MailOutbox,
  teamId: string,
  runId: string,
  changes: readonly DirectoryChange[],
) {
  return db.transaction(async (tx) => {
    const team: Team = { id: teamId, name: (await teamRepository.findById(tx, teamId))?.name ?? '' };
    const admins = await teamAdminEmails(tx, team.id);
    const events: { action: ActionName; emails: string[]; detail: Record<string, unknown> }[] = [];
    const event: RecordEvent = (action, emails, detail = {}) => {
      events.push({ action, emails, detail: { actor_type: 'directory', run: runId, ...detail } });
    };
    const invites = changes.filter((c) => c.op === 'member_invite');
    const known = await members.byDirectoryIds(
      tx,
      team.id,
      invites.map((c) => c.directory_id),
    );
    const newcomers = invites.filter((c) => !known.has(c.directory_id));
    if (newcomers.length > 0) {
      const licences = await lockLicences(tx, team.id);
      assertLicencesAvailable(licences.total, licences.used, newcomers.length);
      await recordLicencesTaken(tx, team.id, licences, newcomers.length);
    }
    const locked = new Map(
      (
        await members.lock(
          tx,
          team.id,
          changes.flatMap((c) => ('member_id' in c ? [c.member_id] : [])),
        )
      ).map((m) => [m.id, m]),
    );
    const mine = (index: number, id: string): DirectoryMemberRecord => {
      const member = locked.get(id);
      if (!member) throw refused(index, 'the member is no longer in the team.');
      if (admins.has(member.email.toLowerCase()))
        throw refused(index, `${member.email} is an administrator; a sync never changes one.`);
      if (member.source === 'scim') throw refused(index, `${member.email} is provisioned by a SCIM connector.`);
      return member;
    };

    // The batch's invitations in one statement, where the first comes (after the updates before it,
    // which may free an address); the console's rules: never an administrator, never a current member.
    let invited: Set<string> | undefined;
    let invitedEmails: string[] = [];
    const inviteAll = async () => {
      for (const [index, change] of changes.entries())
        if (change.op === 'member_invite' && admins.has(change.email))
          throw refused(index, `${change.email} is an administrator; a sync never changes one.`);
      const rows = await members.insertMany(tx, team.id, newcomers);
      if (rows.length < newcomers.length) {
        const made = new Set(rows.map((r) => r.email));
        const taken = newcomers.find((c) => !made.has(c.email));
        throw refused(changes.indexOf(taken as DirectoryChange), `${taken?.email} is already a member.`);
      }
      invitedEmails = rows.map((r) => r.email);
      event('member_invited', invitedEmails);
      return new Set(rows.map((r) => r.directory_id as string));
    };
    const groupChanges = createGroupApplier(tx, team.id, changes, event, refused);

    let applied = 0;
    for (const [index, change] of changes.entries()) {
      let changed = false;
      switch (change.op) {
        case 'member_invite':
          invited ??= await inviteAll();
          changed = invited.has(change.directory_id);
          break;
        case 'member_update': {
          const member = mine(index, change.member_id);
          if (member.email === change.email && member.name === change.name && member.directory_id === change.directory_id) break;
          if (admins.has(change.email)) throw refused(index, `${change.email} is an administrator; a sync never changes one.`);
          if (change.email !== member.email && (await members.emailTaken(tx, team.id, change.email, member.id)))
            throw refused(index, `${change.email} is already a member.`);
          await members.update(tx, team.id, member.id, change);
          event('member_updated', [change.email], member.email !== change.email ? { from: member.email } : {});
          changed = true;
          break;
        }
        case 'member_suspend':
        case 'member_restore':
        case 'member_remove': {
          const member = mine(index, change.member_id);
          if (member.source !== 'directory') throw refused(index, `${member.email} is not a member the directory owns.`);
          const act = { member_suspend: members.suspend, member_restore: members.restore, member_remove: members.remove }[
            change.op
          ];
          changed = await act(tx, team.id, member.id);
          if (changed)
            event(
              (
                {
                  member_suspend: 'member_suspended',
                  member_restore: 'member_restored',
                  member_remove: 'member_removed',
                } as const
              )[change.op],
              [member.email],
            );
          break;
        }
        case 'group_create':
        case 'group_rename':
        case 'group_fill':
          changed = await groupChanges.apply(index, change);
          break;
      }
      if (changed) applied++;
    }
    await groupChanges.finish();
    await recordMemberEventsMany(tx, team.id, null, events);
    await queueInvitations(tx, mail, team, invitedEmails);
    return { applied, unchanged: changes.length - applied };
  });
}

/** The console's invitation, sent by the directory: a mail each, queued in the batch's transaction in one go. */
async function queueInvitations(tx: Queryable, mail: MailOutbox, team: Team, emails: string[]) {
  const call = randomUUID();
  await mail.sendMany(
    tx,
    emails.map((to) => ({
      mail: {
        to,
        subject: `You're invited to ${team.name} on Latchkey`,
        text: `You have been added to ${team.name} on Latchkey, your team's password manager, from your organisation's directory.\n\nInstall the Latchkey app and sign in with ${to} to accept.`,
      },
      key: `invitation:${team.id}:${to}:${call}`,
    })),
  );
}
