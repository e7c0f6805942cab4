import {
  type AuxService,
  type Ed25519Jwk,
  type HostingPreference,
  type OrganizationType,
  type Scope,
  SERVICE_STATUS,
  type ServiceState,
  type TeamType,
} from '@latchkey/contracts';
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

/** A set-up Hub, its team and the team's plan: what a Hub→server call is answered from. */
export interface SetUpHub {
  hub_key: Ed25519Jwk;
  team_id: string;
  team_slug: string;
  team_type: TeamType;
  organization_type: OrganizationType;
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
  async findSetUp(q: Queryable, credentialId: string): Promise<SetUpHub | undefined> {
    const [row] = await q.query<SetUpHub>(
      `select h.hub_key, h.team_id, t.slug as team_slug, t.team_type, t.organization_type
       from hubs h join teams t on t.id = h.team_id
       where h.credential_id = $1 and h.server_url is not null and h.hub_key is not null`,
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

  /** The set-up Hubs of the given teams, with each team's slug: where an ended session is announced. */
  async setUpHubsOfTeams(
    q: Queryable,
    teamIds: string[],
  ): Promise<{ server_url: string; credential_id: string; team_slug: string }[]> {
    return q.query(
      `select h.server_url, h.credential_id, t.slug as team_slug from hubs h join teams t on t.id = h.team_id
       where h.team_id = any($1::uuid[]) and h.server_url is not null and h.hub_key is not null`,
      [teamIds],
    );
  },

  /** One set-up Hub of a team, by its credential (a revocation job's target). */
  async setUpHub(
    q: Queryable,
    credentialId: string,
    teamSlug: string,
  ): Promise<{ server_url: string; credential_id: string } | undefined> {
    const [row] = await q.query<{ server_url: string; credential_id: string }>(
      `select h.server_url, h.credential_id from hubs h join teams t on t.id = h.team_id
       where h.credential_id = $1 and t.slug = $2 and h.server_url is not null and h.hub_key is not null`,
      [credentialId, teamSlug],
    );
    return row;
  },

  async teamsOfSessions(q: Queryable, sessionIds: string[]): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>('select distinct team_id from sessions where id = any($1::uuid[])', [
      sessionIds,
    ]);
    return rows.map((r) => r.team_id);
  },

  async teamsOfUser(q: Queryable, userId: string): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>('select distinct team_id from sessions where user_id = $1', [userId]);
    return rows.map((r) => r.team_id);
  },

  /** The admin scopes an email holds in a team now; none for a member who is not an admin. */
  async adminScopes(q: Queryable, teamId: string, email: string): Promise<Scope[]> {
    const [row] = await q.query<{ scopes: Scope[] | null }>(
      `select ta.scopes from team_admins ta join users u on u.id = ta.user_id
       where ta.team_id = $1 and lower(u.email) = lower($2)`,
      [teamId, email],
    );
    return row?.scopes ?? [];
  },

  /** A console session as a Hub's check sees it: its user, team, end, and the admin's scopes now. */
  async consoleSession(
    q: Queryable,
    sessionId: string,
  ): Promise<
    { user_id: string; team_id: string; revoked_at: Date | null; absolute_expires_at: Date; scopes: Scope[] | null } | undefined
  > {
    const [row] = await q.query<{
      user_id: string;
      team_id: string;
      revoked_at: Date | null;
      absolute_expires_at: Date;
      scopes: Scope[] | null;
    }>(
      `select s.user_id, s.team_id, s.revoked_at, s.absolute_expires_at, ta.scopes
       from sessions s left join team_admins ta on ta.team_id = s.team_id and ta.user_id = s.user_id
       where s.id = $1`,
      [sessionId],
    );
    return row;
  },

  async hosting(q: Queryable, teamId: string): Promise<HostingPreference> {
    const [row] = await q.query<{ aux_hosting: HostingPreference }>('select aux_hosting from teams where id = $1', [teamId]);
    return row?.aux_hosting ?? 'not_set';
  },

  async setHosting(q: Queryable, teamId: string, hosting: HostingPreference): Promise<void> {
    await q.query('update teams set aux_hosting = $2 where id = $1', [teamId, hosting]);
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
