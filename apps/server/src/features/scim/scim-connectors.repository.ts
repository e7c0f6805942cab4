import type { ScimIdp } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { scimGroupsRepository } from '../groups/index.ts';

export interface ConnectorRow {
  id: string;
  team_id: string;
  idp: ScimIdp;
  name: string;
  token_hint: string;
  created_at: Date;
  rotated_at: Date | null;
  previous_valid_until: Date | null;
  revoked_at: Date | null;
  last_request_at: Date | null;
}

const COLUMNS = `id, team_id, idp, name, token_hint, created_at, rotated_at,
  case when previous_valid_until > now() then previous_valid_until end as previous_valid_until, revoked_at, last_request_at`;

export const scimConnectorsRepository = {
  list(q: Queryable, teamId: string): Promise<ConnectorRow[]> {
    return q.query<ConnectorRow>(
      `select ${COLUMNS} from scim_connectors where team_id = $1 order by revoked_at is not null, created_at desc`,
      [teamId],
    );
  },

  async find(q: Queryable, teamId: string, id: string, lock = false): Promise<ConnectorRow | undefined> {
    const [row] = await q.query<ConnectorRow>(
      `select ${COLUMNS} from scim_connectors where team_id = $1 and id = $2${lock ? ' for update' : ''}`,
      [teamId, id],
    );
    return row;
  },

  async create(q: Queryable, teamId: string, idp: ScimIdp, name: string, tokenHash: string, hint: string): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      'insert into scim_connectors (team_id, idp, name, token_hash, token_hint) values ($1, $2, $3, $4, $5) returning id',
      [teamId, idp, name, tokenHash, hint],
    );
    return row?.id as string;
  },

  /** The current token becomes the previous one, accepted for `overlapHours` more. */
  async rotate(q: Queryable, id: string, tokenHash: string, hint: string, overlapHours: number): Promise<void> {
    await q.query(
      `update scim_connectors set previous_token_hash = token_hash,
         previous_valid_until = now() + make_interval(hours => $4::int),
         token_hash = $2, token_hint = $3, rotated_at = now()
       where id = $1`,
      [id, tokenHash, hint, overlapHours],
    );
  },

  async revoke(q: Queryable, id: string): Promise<void> {
    await q.query(
      'update scim_connectors set revoked_at = now(), previous_token_hash = null, previous_valid_until = null where id = $1 and revoked_at is null',
      [id],
    );
    // Its groups are the console's again.
    await scimGroupsRepository.release(q, id);
  },

  /** The live connector whose current (or, within the overlap, previous) token hashes to one of `hashes`. */
  async byToken(q: Queryable, hashes: string[]): Promise<ConnectorRow | undefined> {
    const [row] = await q.query<ConnectorRow>(
      `select ${COLUMNS} from scim_connectors where revoked_at is null
       and (token_hash = any($1::text[]) or (previous_token_hash = any($1::text[]) and previous_valid_until > now()))
       limit 1`,
      [hashes],
    );
    return row;
  },

  async logRequest(
    q: Queryable,
    connectorId: string,
    r: { method: string; path: string; status: number; durationMs: number; error: string | null },
  ): Promise<void> {
    await q.query(
      `with logged as (insert into scim_requests (connector_id, method, path, status, duration_ms, error)
         values ($1, $2, $3, $4, $5, $6))
       update scim_connectors set last_request_at = now() where id = $1
         and (last_request_at is null or last_request_at < now() - interval '1 second')`,
      [connectorId, r.method, r.path, r.status, r.durationMs, r.error],
    );
  },

  async requests(q: Queryable, connectorId: string, page: number, pageSize: number) {
    const [count] = await q.query<{ n: number }>('select count(*)::int as n from scim_requests where connector_id = $1', [
      connectorId,
    ]);
    const rows = await q.query<{
      id: string;
      at: Date;
      method: string;
      path: string;
      status: number;
      duration_ms: number;
      error: string | null;
    }>(
      `select id::text, at, method, path, status, duration_ms, error from scim_requests where connector_id = $1
       order by at desc, id desc limit $2 offset $3`,
      [connectorId, pageSize, (page - 1) * pageSize],
    );
    return { rows, count: count?.n ?? 0 };
  },
};
