import type { DeviceType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface DeviceRow {
  id: string;
  name: string;
  type: DeviceType;
  os: string;
  os_version: string;
  browser: string | null;
  app_version: string;
  last_seen_at: Date;
  hub_authenticated_at: Date | null;
}

/** What an app reports about the device it runs on (the Hub's ingestion API will send this). */
interface DeviceReport {
  device_id: string;
  name: string;
  type: DeviceType;
  os: string;
  os_version?: string;
  browser?: string | null;
  app_version: string;
  seen_at?: Date;
  hub_authenticated_at?: Date | null;
}

export const devicesRepository = {
  /** The team's members with a device that has authenticated with the team's Hub (the members list's filter). */
  async hubAuthenticatedMembers(q: Queryable, teamId: string): Promise<string[]> {
    const rows = await q.query<{ member_id: string }>(
      'select distinct member_id from member_devices where team_id = $1 and hub_authenticated_at is not null',
      [teamId],
    );
    return rows.map((r) => r.member_id);
  },

  async ofMember(q: Queryable, memberId: string): Promise<DeviceRow[]> {
    return q.query<DeviceRow>(
      `select id, name, type, os, os_version, browser, app_version, last_seen_at, hub_authenticated_at
       from member_devices where member_id = $1 order by last_seen_at desc, id`,
      [memberId],
    );
  },

  /**
   * Records a device report: a new device, or the known one updated (name, versions, last seen,
   * and the Hub authentication time when the report carries one).
   */
  async upsert(q: Queryable, teamId: string, memberId: string, r: DeviceReport): Promise<void> {
    await q.query(
      `insert into member_devices (team_id, member_id, device_id, name, type, os, os_version, browser, app_version,
         last_seen_at, hub_authenticated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       on conflict (member_id, device_id) do update set name = excluded.name, type = excluded.type, os = excluded.os,
         os_version = excluded.os_version, browser = excluded.browser, app_version = excluded.app_version,
         last_seen_at = greatest(member_devices.last_seen_at, excluded.last_seen_at),
         hub_authenticated_at = coalesce(excluded.hub_authenticated_at, member_devices.hub_authenticated_at)`,
      [
        teamId,
        memberId,
        r.device_id,
        r.name,
        r.type,
        r.os,
        r.os_version ?? '',
        r.browser ?? null,
        r.app_version,
        r.seen_at ?? new Date(),
        r.hub_authenticated_at ?? null,
      ],
    );
  },
};
