import type { Queryable } from '@latchkey/runtime';
import { adminsRepository } from '../admins/index.ts';
import { sessionsRepository } from '../auth/index.ts';
import { teamRepository } from '../team/index.ts';
import { usersRepository } from '../users/index.ts';

export interface ConnectorRow {
  id: string;
  team_id: string;
  config_name: string;
  idp_type: string;
  metadata_xml: string | null;
  metadata_url: string | null;
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  idp_certificates: string[];
  sign_mode: 'assertion' | 'response' | 'both';
  active: boolean;
  tested_at: Date | null;
}

interface SamlRequestRow {
  id: string;
  team_id: string;
  config_id: string;
  email: string | null;
  test: boolean;
  requested_by: string | null;
  expires_at: Date;
  consumed_at: Date | null;
  outcome: string | null;
  result: Record<string, unknown> | null;
}

export interface SsoConfigRow {
  config_uuid: string;
  config_name: string;
  idp_type: string;
  metadata_xml: string | null;
}

interface TeamAdminRow {
  user_id: string;
  email: string;
  name: string;
  scopes: string[];
  has_password: boolean;
  excluded: boolean;
}

const CONNECTOR = `id, team_id, config_name, idp_type, metadata_xml, metadata_url, idp_entity_id, idp_sso_url,
  idp_certificates, sign_mode, active, tested_at`;

/** SQL of SAML SSO (migrations 0005 and 0016): connectors, the SP key, requests, replay cache, policy. */
export const ssoRepository = {
  async connectors(q: Queryable, teamId: string): Promise<ConnectorRow[]> {
    return q.query(`select ${CONNECTOR} from sso_configs where team_id = $1 order by created_at, id`, [teamId]);
  },

  async connector(q: Queryable, teamId: string, id: string, lock = false): Promise<ConnectorRow | undefined> {
    const [row] = await q.query<ConnectorRow>(
      `select ${CONNECTOR} from sso_configs where team_id = $1 and id = $2${lock ? ' for update' : ''}`,
      [teamId, id],
    );
    return row;
  },

  /** A connector by its id alone: SSO start learns the team from it, never from the email. */
  async connectorById(q: Queryable, id: string): Promise<ConnectorRow | undefined> {
    const [row] = await q.query<ConnectorRow>(`select ${CONNECTOR} from sso_configs where id = $1`, [id]);
    return row;
  },

  async nameTaken(q: Queryable, teamId: string, name: string, exceptId: string | null): Promise<boolean> {
    const [row] = await q.query<{ n: number }>(
      `select count(*)::int as n from sso_configs where team_id = $1 and lower(config_name) = lower($2)
       and ($3::uuid is null or id <> $3::uuid)`,
      [teamId, name, exceptId],
    );
    return (row?.n ?? 0) > 0;
  },

  async create(q: Queryable, teamId: string, name: string, idpType: string, signMode: string): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      'insert into sso_configs (team_id, config_name, idp_type, sign_mode) values ($1, $2, $3, $4) returning id',
      [teamId, name, idpType, signMode],
    );
    return row?.id as string;
  },

  async rename(q: Queryable, id: string, name: string): Promise<void> {
    await q.query('update sso_configs set config_name = $2, updated_at = now() where id = $1', [id, name]);
  },

  async setSignMode(q: Queryable, id: string, mode: string): Promise<void> {
    // A different signature rule is a different configuration: tested again before it is used.
    await q.query(
      'update sso_configs set sign_mode = $2, tested_at = null, active = false, updated_at = now() where id = $1 and sign_mode <> $2',
      [id, mode],
    );
  },

  /** A new identity provider: its test is void and the connector is off until tested again. */
  async setIdentityProvider(
    q: Queryable,
    id: string,
    idp: { xml: string; url: string | null; entityId: string; ssoUrl: string; certificates: string[] },
  ): Promise<void> {
    await q.query(
      `update sso_configs set metadata_xml = $2, metadata_url = $3, idp_entity_id = $4, idp_sso_url = $5,
         idp_certificates = $6, tested_at = null, active = false, updated_at = now() where id = $1`,
      [id, idp.xml, idp.url, idp.entityId, idp.ssoUrl, idp.certificates],
    );
  },

  async setActive(q: Queryable, id: string, active: boolean): Promise<void> {
    await q.query('update sso_configs set active = $2, updated_at = now() where id = $1', [id, active]);
  },

  async markTested(q: Queryable, id: string): Promise<void> {
    await q.query('update sso_configs set tested_at = now() where id = $1', [id]);
  },

  async remove(q: Queryable, id: string): Promise<void> {
    await q.query('delete from sso_configs where id = $1', [id]);
  },

  async spKey(q: Queryable, teamId: string): Promise<{ private_key_sealed: string; certificate: string } | undefined> {
    const [row] = await q.query<{ private_key_sealed: string; certificate: string }>(
      'select private_key_sealed, certificate from sso_sp_keys where team_id = $1',
      [teamId],
    );
    return row;
  },

  /** Keeps the first key written for a team (two instances generating at once agree on one). */
  async saveSpKey(q: Queryable, teamId: string, sealed: string, certificate: string): Promise<void> {
    await q.query(
      'insert into sso_sp_keys (team_id, private_key_sealed, certificate) values ($1, $2, $3) on conflict (team_id) do nothing',
      [teamId, sealed, certificate],
    );
  },

  async saveRequest(
    q: Queryable,
    r: { id: string; teamId: string; configId: string; email: string | null; test: boolean; requestedBy: string | null },
    minutes: number,
  ): Promise<void> {
    await q.query(
      `insert into saml_requests (id, team_id, config_id, email, test, requested_by, expires_at)
       values ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 minute')`,
      [r.id, r.teamId, r.configId, r.email, r.test, r.requestedBy, minutes],
    );
    // Old requests go as new ones come: the table holds minutes of them, not years.
    await q.query("delete from saml_requests where expires_at < now() - interval '1 day'");
  },

  async request(q: Queryable, id: string): Promise<SamlRequestRow | undefined> {
    const [row] = await q.query<SamlRequestRow>('select * from saml_requests where id = $1', [id]);
    return row;
  },

  /** Spends a live request in one statement: of two responses to it, only one gets it. */
  async consumeRequest(q: Queryable, id: string): Promise<boolean> {
    const rows = await q.query(
      'update saml_requests set consumed_at = now() where id = $1 and consumed_at is null and expires_at > now() returning id',
      [id],
    );
    return rows.length === 1;
  },

  async recordOutcome(q: Queryable, id: string, outcome: string, result: unknown): Promise<void> {
    await q.query('update saml_requests set outcome = $2, result = $3 where id = $1', [id, outcome, JSON.stringify(result)]);
  },

  /** Records an assertion as used; false when it was used before (a replay). */
  async useAssertion(q: Queryable, issuer: string, assertionId: string, expiresAt: Date): Promise<boolean> {
    await q.query('delete from saml_replay where expires_at < now()');
    const rows = await q.query(
      `insert into saml_replay (issuer, assertion_id, expires_at) values ($1, $2, $3)
       on conflict do nothing returning assertion_id`,
      [issuer, assertionId, expiresAt],
    );
    return rows.length === 1;
  },

  async policy(q: Queryable, teamId: string): Promise<{ enforce_sso: boolean; excluded_admins: string[] }> {
    const [row] = await q.query<{ enforce_sso: boolean; excluded_admins: string[] }>(
      'select enforce_sso, excluded_admins from sso_policies where team_id = $1',
      [teamId],
    );
    return row ?? { enforce_sso: false, excluded_admins: [] };
  },

  async lockPolicy(q: Queryable, teamId: string): Promise<void> {
    await q.query('insert into sso_policies (team_id) values ($1) on conflict (team_id) do nothing', [teamId]);
    await q.query('select 1 from sso_policies where team_id = $1 for update', [teamId]);
  },

  async savePolicy(q: Queryable, teamId: string, enforce: boolean, excluded: string[]): Promise<void> {
    await q.query('update sso_policies set enforce_sso = $2, excluded_admins = $3 where team_id = $1', [
      teamId,
      enforce,
      excluded,
    ]);
  },

  /** Ends the team's live sessions of these admins that were not signed in through SSO (the sessions are auth's). */
  async endSessionsNotFromSso(q: Queryable, teamId: string, userIds: string[]): Promise<{ id: string; user_id: string }[]> {
    return sessionsRepository.revokeNotFromSso(q, teamId, userIds);
  },

  async team(q: Queryable, id: string): Promise<{ id: string; slug: string; name: string } | undefined> {
    const team = await teamRepository.findById(q, id);
    return team && { id: team.id, slug: team.slug, name: team.name };
  },

  /** The team's administrators by email, with whether each has a password and is excluded from enforcement. */
  async teamAdmins(q: Queryable, teamId: string): Promise<TeamAdminRow[]> {
    const memberships = await adminsRepository.memberships(q, teamId);
    const scopes = new Map(memberships.map((m) => [m.user_id, m.scopes]));
    const [people, policy] = await Promise.all([
      usersRepository.findUsersByIds(q, [...scopes.keys()]),
      ssoRepository.policy(q, teamId),
    ]);
    return people.map((u) => ({
      user_id: u.id,
      email: u.email,
      name: u.name,
      scopes: scopes.get(u.id) ?? [],
      has_password: u.has_password,
      excluded: policy.excluded_admins.includes(u.id),
    }));
  },

  /** An admin of the team by email (case-insensitive), for mapping a NameID. */
  async teamAdminByEmail(q: Queryable, teamId: string, email: string): Promise<{ user_id: string; email: string } | undefined> {
    for (const user of await usersRepository.findUsersByEmailIgnoringCase(q, email)) {
      const scopes = await adminsRepository.scopesIn(q, teamId, user.id);
      if (scopes && scopes.length > 0) return { user_id: user.id, email: user.email };
    }
    return undefined;
  },

  /** The team's active connectors, as the sign-in's email step lists them. */
  async activeConfigs(q: Queryable, teamId: string): Promise<SsoConfigRow[]> {
    return q.query<SsoConfigRow>(
      `select id as config_uuid, config_name, idp_type, metadata_xml from sso_configs
       where team_id = $1 and active order by created_at`,
      [teamId],
    );
  },

  /** The team's policy when it has an active connector (enforcement needs one); undefined otherwise. */
  async policyWithActiveConnector(
    q: Queryable,
    teamId: string,
  ): Promise<{ enforce_sso: boolean; excluded_admins: string[] } | undefined> {
    const [row] = await q.query<{ enforce_sso: boolean; excluded_admins: string[] }>(
      `select p.enforce_sso, p.excluded_admins from sso_policies p
       where p.team_id = $1 and exists (select 1 from sso_configs c where c.team_id = p.team_id and c.active)`,
      [teamId],
    );
    return row;
  },
};
