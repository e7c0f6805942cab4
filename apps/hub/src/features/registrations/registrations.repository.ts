import { AUX_SERVICES, type AuxService } from '@latchkey/contracts';
import type { Ed25519Jwk, Queryable } from '@latchkey/runtime';

export interface RegistrationRow {
  id: string;
  team_slug: string;
  credential_id: string;
  /** The licence server's public key; null for a registration made before keys (accepts nothing). */
  server_key: Ed25519Jwk | null;
  /** Where this Hub calls the server back (session checks). */
  server_url: string | null;
  services: AuxService[];
}

const COLUMNS = 'id, team_slug, credential_id, server_key, server_url, services';

interface NewRegistration {
  team_slug: string;
  credential_id: string;
  server_key: Ed25519Jwk;
  server_url: string;
}

export const registrationsRepository = {
  async findByCredential(q: Queryable, credentialId: string): Promise<RegistrationRow | undefined> {
    const [row] = await q.query<RegistrationRow>(`select ${COLUMNS} from registrations where credential_id = $1`, [credentialId]);
    return row;
  },

  async findById(q: Queryable, id: string): Promise<RegistrationRow | undefined> {
    const [row] = await q.query<RegistrationRow>(`select ${COLUMNS} from registrations where id = $1`, [id]);
    return row;
  },

  async listForTeam(q: Queryable, teamSlug: string): Promise<RegistrationRow[]> {
    return q.query<RegistrationRow>(`select ${COLUMNS} from registrations where team_slug = $1 order by created_at`, [teamSlug]);
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

  /**
   * Registers a credential, or gives a known one of the same team its new key and address (the
   * server registering it again). False when the credential belongs to another team here.
   */
  async upsert(q: Queryable, r: NewRegistration): Promise<boolean> {
    const rows = await q.query(
      `insert into registrations (team_slug, credential_id, server_key, server_url) values ($1, $2, $3, $4)
       on conflict (credential_id) do update set server_key = excluded.server_key, server_url = excluded.server_url
         where registrations.team_slug = excluded.team_slug
       returning 1`,
      [r.team_slug, r.credential_id, JSON.stringify(r.server_key), r.server_url],
    );
    return rows.length === 1;
  },

  async deleteForTeam(q: Queryable, teamSlug: string): Promise<number> {
    const rows = await q.query('delete from registrations where team_slug = $1 returning 1', [teamSlug]);
    return rows.length;
  },

  async insert(q: Queryable, r: NewRegistration): Promise<void> {
    await q.query('insert into registrations (team_slug, credential_id, server_key, server_url) values ($1, $2, $3, $4)', [
      r.team_slug,
      r.credential_id,
      JSON.stringify(r.server_key),
      r.server_url,
    ]);
  },
};
