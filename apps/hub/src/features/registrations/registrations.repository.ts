import type { Queryable } from '@latchkey/runtime';

export interface RegistrationRow {
  id: string;
  team_slug: string;
  credential_id: string;
  secret: string;
}

export const registrationsRepository = {
  async findByCredential(q: Queryable, credentialId: string): Promise<RegistrationRow | undefined> {
    const [row] = await q.query<RegistrationRow>(
      'select id, team_slug, credential_id, secret from registrations where credential_id = $1',
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

  async insert(q: Queryable, r: Omit<RegistrationRow, 'id'>): Promise<void> {
    await q.query('insert into registrations (team_slug, credential_id, secret) values ($1, $2, $3)', [
      r.team_slug,
      r.credential_id,
      r.secret,
    ]);
  },
};
