import type { EndpointOutput, hubDirectoryStateEndpoint } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { teamAdminEmails } from '../admins/index.ts';
import { directoryGroupsRepository } from '../groups/index.ts';
import { directoryMembersRepository, membersRepository } from '../members/index.ts';
import { licenceTotal } from '../team/index.ts';

/** The team as directory sync compares it with the directory: members (admins marked), groups, free licences. */
export async function directoryState(q: Queryable, teamId: string): Promise<EndpointOutput<typeof hubDirectoryStateEndpoint>> {
  const members = await directoryMembersRepository.all(q, teamId);
  const groups = await directoryGroupsRepository.all(q, teamId);
  const admins = await teamAdminEmails(q, teamId);
  const total = await licenceTotal(q, teamId);
  const used = await membersRepository.countLicensed(q, teamId);
  return {
    licences_free: total === null || total < 0 ? null : Math.max(0, total - used),
    members: members.map((m) => ({ ...m, admin: admins.has(m.email.toLowerCase()) })),
    admins: [...admins],
    groups,
  };
}
