import { type AuxService, type Ed25519Jwk, SERVICE_STATUS, type ServiceState } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface CredentialRow {
  id: string;
  credential_id: string;
  name: string;
  server_url: string | null;
  /** The Hub's public key, given by the Hub when the server registered there; null until set up. */
  hub_key: Ed25519Jwk | null;
  hub_version: string | null;
  services: Partial<Record<AuxService, ServiceState>>;
  created_at: string;
}

const COLUMNS = `id, credential_id, name, server_url, hub_key, hub_version, services,
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

  /** A set-up credential by its id alone, with its team: who a Hub's signed call claims to be. */
  async findSetUp(q: Queryable, credentialId: string): Promise<{ hub_key: Ed25519Jwk; team_id: string } | undefined> {
    const [row] = await q.query<{ hub_key: Ed25519Jwk; team_id: string }>(
      `select hub_key, team_id from hubs
       where credential_id = $1 and server_url is not null and hub_key is not null`,
      [credentialId],
    );
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

  async insert(q: Queryable, teamId: string, c: { credentialId: string; name: string }): Promise<CredentialRow> {
    const [row] = await q.query<CredentialRow>(
      `insert into hubs (team_id, credential_id, name) values ($1, $2, $3) returning ${COLUMNS}`,
      [teamId, c.credentialId, c.name],
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
    setUp: { serverUrl: string; hubKey: Ed25519Jwk; hubVersion: string; services: Partial<Record<AuxService, ServiceState>> },
  ) {
    await q.query('update hubs set server_url = $2, hub_key = $3, hub_version = $4, services = $5 where id = $1', [
      id,
      setUp.serverUrl,
      JSON.stringify(setUp.hubKey),
      setUp.hubVersion,
      JSON.stringify(setUp.services),
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

  /** The set-up Hubs of the given teams: where an ended session is announced. */
  async setUpHubsOfTeams(
    q: Queryable,
    teamIds: string[],
  ): Promise<{ server_url: string; credential_id: string; team_id: string }[]> {
    return q.query(
      `select server_url, credential_id, team_id from hubs
       where team_id = any($1::uuid[]) and server_url is not null and hub_key is not null`,
      [teamIds],
    );
  },

  /** One set-up Hub of a team, by its credential (a revocation job's target). */
  async setUpHub(
    q: Queryable,
    credentialId: string,
    teamId: string,
  ): Promise<{ server_url: string; credential_id: string } | undefined> {
    const [row] = await q.query<{ server_url: string; credential_id: string }>(
      `select server_url, credential_id from hubs
       where credential_id = $1 and team_id = $2 and server_url is not null and hub_key is not null`,
      [credentialId, teamId],
    );
    return row;
  },

  /**
   * Switches recovery on the team's first Hub (the one the console talks to), in one statement
   * so a concurrent change to another service is kept. False when the team has no Hub.
   */
  async setRecovery(q: Queryable, teamId: string, enabled: boolean): Promise<boolean> {
    const state = { enabled, status: enabled ? SERVICE_STATUS.active : SERVICE_STATUS.disabled };
    const rows = await q.query(
      `update hubs set services = jsonb_set(services, '{recovery}', $2::jsonb)
       where id = (select id from hubs where team_id = $1 order by created_at limit 1) returning id`,
      [teamId, JSON.stringify(state)],
    );
    return rows.length > 0;
  },
};
