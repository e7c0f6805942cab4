import type { Queryable } from '@latchkey/runtime';
import { registrationsRepository } from '../registrations/index.ts';

interface DeviceRow {
  id: string;
  team_slug: string;
  email: string;
  secret_hash: string;
  public_key: string | null;
  revoked_at: Date | null;
}

export const devicesRepository = {
  async insert(
    q: Queryable,
    d: {
      team_slug: string;
      email: string;
      name: string;
      os: string;
      app_version: string;
      public_key: string | null;
      secret_hash: string;
    },
  ): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      `insert into devices (team_slug, email, name, os, app_version, public_key, secret_hash)
       values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [d.team_slug, d.email, d.name, d.os, d.app_version, d.public_key, d.secret_hash],
    );
    return row?.id as string;
  },

  /** A device of a team this Hub still serves: removing the team's registration shuts its apps out. */
  async findServed(q: Queryable, id: string): Promise<DeviceRow | undefined> {
    const [row] = await q.query<DeviceRow>(
      'select id, team_slug, email, secret_hash, public_key, revoked_at from devices where id = $1',
      [id],
    );
    return row && (await registrationsRepository.existsForTeam(q, row.team_slug)) ? row : undefined;
  },

  /** The device still holds its key (not revoked): what a recovery secret can be encrypted to. */
  async hasKey(q: Queryable, id: string): Promise<boolean> {
    const rows = await q.query('select 1 from devices where id = $1 and public_key is not null and revoked_at is null', [id]);
    return rows.length > 0;
  },

  async touch(q: Queryable, id: string): Promise<void> {
    await q.query('update devices set last_seen_at = now() where id = $1', [id]);
  },

  async listForMember(q: Queryable, teamSlug: string, email: string) {
    return q.query<{ name: string; os: string; app_version: string; last_seen_at: Date }>(
      `select name, os, app_version, last_seen_at from devices
       where team_slug = $1 and email = $2 and revoked_at is null order by last_seen_at desc`,
      [teamSlug, email],
    );
  },

  /** Members (of `emails`) with a live device that has a public key. */
  async emailsWithKeys(q: Queryable, teamSlug: string, emails: string[]): Promise<Set<string>> {
    const rows = await q.query<{ email: string }>(
      `select distinct email from devices
       where team_slug = $1 and email = any($2) and public_key is not null and revoked_at is null`,
      [teamSlug, emails],
    );
    return new Set(rows.map((r) => r.email));
  },
};
