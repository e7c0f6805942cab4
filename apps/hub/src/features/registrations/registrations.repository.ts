import { AUX_SERVICES, type AuxService } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface RegistrationRow {
  id: string;
  team_slug: string;
  credential_id: string;
  secret: string;
  services: AuxService[];
}

export const registrationsRepository = {
  async findByCredential(q: Queryable, credentialId: string): Promise<RegistrationRow | undefined> {
    const [row] = await q.query<RegistrationRow>(
      'select id, team_slug, credential_id, secret, services from registrations where credential_id = $1',
      [credentialId],
    );
    return row;
  },

  async existsForTeam(q: Queryable, teamSlug: string): Promise<boolean> {
    const rows = await q.query('select 1 from registrations where team_slug = $1 limit 1', [teamSlug]);
    return rows.length > 0;
  },

  async count(q: Queryable): Promise<number> {
    const [row] = await q.query<{ n: number }>('select count(*)::int as n from registrations');
    return row?.n ?? 0;
  },

  /** The services switched on for a team (across its registrations). */
  async enabledForTeam(q: Queryable, teamSlug: string): Promise<AuxService[]> {
    const rows = await q.query<{ service: AuxService }>(
      'select distinct unnest(services) as service from registrations where team_slug = $1',
      [teamSlug],
    );
    const on = new Set(rows.map((r) => r.service));
    return AUX_SERVICES.filter((s) => on.has(s));
  },

  async setServices(q: Queryable, id: string, services: readonly AuxService[]): Promise<void> {
    await q.query('update registrations set services = $2 where id = $1', [id, services]);
  },

  /** Registers a credential, or gives a known one its new secret (the console re-registering it). */
  async upsert(q: Queryable, r: Pick<RegistrationRow, 'team_slug' | 'credential_id' | 'secret'>): Promise<boolean> {
    const rows = await q.query(
      `insert into registrations (team_slug, credential_id, secret) values ($1, $2, $3)
       on conflict (credential_id) do update set secret = excluded.secret where registrations.team_slug = excluded.team_slug
       returning 1`,
      [r.team_slug, r.credential_id, r.secret],
    );
    return rows.length === 1;
  },

  async deleteForTeam(q: Queryable, teamSlug: string): Promise<number> {
    const rows = await q.query('delete from registrations where team_slug = $1 returning 1', [teamSlug]);
    return rows.length;
  },

  async insert(q: Queryable, r: Pick<RegistrationRow, 'team_slug' | 'credential_id' | 'secret'>): Promise<void> {
    await q.query('insert into registrations (team_slug, credential_id, secret) values ($1, $2, $3)', [
      r.team_slug,
      r.credential_id,
      r.secret,
    ]);
  },
};
