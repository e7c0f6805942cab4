import type { AuxService, HostingPreference, ServiceState } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface CredentialRow {
  id: string;
  credential_id: string;
  name: string;
  secret: string;
  server_url: string | null;
  hub_version: string | null;
  services: Partial<Record<AuxService, ServiceState>>;
  created_at: string;
}

const COLUMNS = `id, credential_id, name, secret, server_url, hub_version, services,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at`;

/** Hub credentials and their service states (table `hubs`), always within one team. */
export const integrationRepository = {
  async list(q: Queryable, teamId: string): Promise<CredentialRow[]> {
    return q.query(`select ${COLUMNS} from hubs where team_id = $1 order by created_at, id`, [teamId]);
  },

  async find(q: Queryable, teamId: string, credentialId: string): Promise<CredentialRow | undefined> {
    const [row] = await q.query<CredentialRow>(`select ${COLUMNS} from hubs where team_id = $1 and credential_id = $2`, [
      teamId,
      credentialId,
    ]);
    return row;
  },

  /** The team's first Hub that is set up: the one whose services the console follows. */
  async firstConnected(q: Queryable, teamId: string): Promise<CredentialRow | undefined> {
    const [row] = await q.query<CredentialRow>(
      `select ${COLUMNS} from hubs where team_id = $1 and server_url is not null order by created_at, id limit 1`,
      [teamId],
    );
    return row;
  },

  async insert(q: Queryable, teamId: string, c: { credentialId: string; name: string; secret: string }): Promise<CredentialRow> {
    const [row] = await q.query<CredentialRow>(
      `insert into hubs (team_id, credential_id, name, secret) values ($1, $2, $3, $4) returning ${COLUMNS}`,
      [teamId, c.credentialId, c.name, c.secret],
    );
    return row as CredentialRow;
  },

  async rename(q: Queryable, teamId: string, credentialId: string, name: string): Promise<CredentialRow | undefined> {
    const [row] = await q.query<CredentialRow>(
      `update hubs set name = $3 where team_id = $1 and credential_id = $2 returning ${COLUMNS}`,
      [teamId, credentialId, name],
    );
    return row;
  },

  async remove(q: Queryable, teamId: string, credentialId: string): Promise<boolean> {
    const rows = await q.query('delete from hubs where team_id = $1 and credential_id = $2 returning 1', [teamId, credentialId]);
    return rows.length === 1;
  },

  async setUp(
    q: Queryable,
    id: string,
    serverUrl: string,
    hubVersion: string,
    services: Partial<Record<AuxService, ServiceState>>,
  ) {
    await q.query('update hubs set server_url = $2, hub_version = $3, services = $4 where id = $1', [
      id,
      serverUrl,
      hubVersion,
      JSON.stringify(services),
    ]);
  },

  /** Merges the given services' states, leaving the others as they are (no lost concurrent update). */
  async mergeServices(
    q: Queryable,
    id: string,
    changes: Partial<Record<AuxService, ServiceState>>,
    hubVersion?: string,
  ): Promise<void> {
    await q.query('update hubs set services = services || $2::jsonb, hub_version = coalesce($3, hub_version) where id = $1', [
      id,
      JSON.stringify(changes),
      hubVersion ?? null,
    ]);
  },

  async hosting(q: Queryable, teamId: string): Promise<HostingPreference> {
    const [row] = await q.query<{ aux_hosting: HostingPreference }>('select aux_hosting from teams where id = $1', [teamId]);
    return row?.aux_hosting ?? 'not_set';
  },

  async setHosting(q: Queryable, teamId: string, hosting: HostingPreference): Promise<void> {
    await q.query('update teams set aux_hosting = $2 where id = $1', [teamId, hosting]);
  },
};
