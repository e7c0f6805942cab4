import type { Queryable } from '@latchkey/runtime';

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
      `select d.id, d.team_slug, d.email, d.secret_hash, d.public_key, d.revoked_at from devices d
       where d.id = $1 and exists (select 1 from registrations r where r.team_slug = d.team_slug)`,
      [id],
    );
    return row;
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
