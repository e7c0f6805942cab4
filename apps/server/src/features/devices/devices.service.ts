import type { MemberDevice } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { groupLookupsRepository, groupNotFound } from '../groups/index.ts';
import { membersRepository } from '../members/index.ts';
import { type DeviceRow, devicesRepository as repo } from './devices.repository.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

const toDevice = (r: DeviceRow): MemberDevice => ({
  id: r.id,
  name: r.name,
  type: r.type,
  os: r.os,
  os_version: r.os_version,
  browser: r.browser,
  app_version: r.app_version,
  last_seen_at: iso(r.last_seen_at),
  hub_authenticated_at: r.hub_authenticated_at ? iso(r.hub_authenticated_at) : null,
});

export function createDevicesService(db: Db) {
  return {
    /** A current member's devices; through a group, only when the member is in it. */
    async ofMember(caller: Caller, email: string, groupId: string | undefined) {
      const member = await membersRepository.findCurrent(db, caller.team.id, email);
      if (!member)
        throw new AppError('member_not_found', `Not a member of this team: ${email}.`).shows('errors.not_members', {
          emails: email,
        });
      let group: { id: string; name: string } | null = null;
      if (groupId) {
        const found = await groupLookupsRepository.withMembership(db, caller.team.id, groupId, member.id);
        if (!found) throw groupNotFound();
        if (!found.is_member)
          throw new AppError('member_not_found', `${email} is not in the group ${found.name}.`).shows('errors.not_in_group', {
            email,
            group: found.name,
          });
        group = { id: found.id, name: found.name };
      }
      const devices = (await repo.ofMember(db, member.id)).map(toDevice);
      return { member: { email: member.email, name: member.name, status: member.status, source: member.source }, group, devices };
    },
  };
}
