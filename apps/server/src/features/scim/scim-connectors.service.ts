import { randomBytes } from 'node:crypto';
import { type ActionName, SCIM_REQUESTS_PAGE_SIZE, type ScimConnector, type ScimIdp } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import type { CodeHasher } from '../../platform/code-hasher.ts';
import { recordMemberEvents } from '../members/index.ts';
import { createConnectorCache } from './scim-connector-cache.ts';
import { type ConnectorRow, scimConnectorsRepository as repo } from './scim-connectors.repository.ts';
import { createRequestLog } from './scim-request-log.ts';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toConnector = (r: ConnectorRow): ScimConnector => ({
  id: r.id,
  idp: r.idp,
  name: r.name,
  token_hint: r.token_hint,
  created_at: new Date(r.created_at).toISOString(),
  rotated_at: iso(r.rotated_at),
  previous_valid_until: iso(r.previous_valid_until),
  revoked_at: iso(r.revoked_at),
  last_request_at: iso(r.last_request_at),
});

const notFound = () => new AppError('not_found', 'No such SCIM connector in this team.', 404).shows('scim.errors.not_found');

/** A bearer token: 256 random bits, recognisable by its prefix (secret scanners). */
const newScimToken = (): string => `lkscim_${randomBytes(32).toString('base64url')}`;

/** Connectors in the console: create (token shown once), rotate with an overlap, revoke, request log. */
export function createScimConnectorsService(
  db: Db,
  codes: CodeHasher,
  tenantUrl: () => string,
  onLogError: (error: unknown) => void = () => {},
) {
  // Every SCIM request needs its connector and leaves a log line: a short-lived cache and batched
  // writes keep both off the request's path (the SCIM speed targets; docs/security.md).
  const cache = createConnectorCache((hashes) => repo.byToken(db, hashes));
  const log = createRequestLog(db, onLogError);
  const record = (
    caller: Caller,
    action: ActionName,
    connector: ConnectorRow | { id: string; name: string; idp: string },
    q: Db = db,
  ) =>
    recordMemberEvents(q, caller.team.id, caller.userId, action, [caller.email], {
      connector: connector.id,
      name: connector.name,
      idp: connector.idp,
    });

  const mustFind = async (caller: Caller, id: string, q: Db = db) => {
    const row = await repo.find(q, caller.team.id, id);
    if (!row) throw notFound();
    return row;
  };

  return {
    async list(caller: Caller) {
      await log.flush();
      return { results: (await repo.list(db, caller.team.id)).map(toConnector), tenant_url: tenantUrl() };
    },

    /** `q`: the database the change is written to (an approval's transaction; the server's by default). */
    async create(caller: Caller, idp: ScimIdp, name: string, q: Db = db) {
      const token = newScimToken();
      const id = await q.transaction(async (tx) => {
        const created = await repo.create(tx, caller.team.id, idp, name, codes.hash(token), token.slice(-4));
        await recordMemberEvents(tx, caller.team.id, caller.userId, 'scim_connector_created', [caller.email], {
          connector: created,
          name,
          idp,
        });
        return created;
      });
      return { connector: toConnector(await mustFind(caller, id, q)), token, tenant_url: tenantUrl() };
    },

    async rotate(caller: Caller, id: string, overlapHours: number, q: Db = db) {
      const token = newScimToken();
      await q.transaction(async (tx) => {
        const row = await repo.find(tx, caller.team.id, id, true);
        if (!row || row.revoked_at) throw notFound();
        await repo.rotate(tx, id, codes.hash(token), token.slice(-4), overlapHours);
      });
      cache.clear();
      const row = await mustFind(caller, id, q);
      await record(caller, 'scim_token_rotated', row, q);
      return { connector: toConnector(row), token, tenant_url: tenantUrl() };
    },

    async revoke(caller: Caller, id: string, q: Db = db) {
      await q.transaction(async (tx) => {
        const row = await repo.find(tx, caller.team.id, id, true);
        if (!row) throw notFound();
        await repo.revoke(tx, id);
        await recordMemberEvents(tx, caller.team.id, caller.userId, 'scim_connector_revoked', [caller.email], {
          connector: row.id,
          name: row.name,
          idp: row.idp,
        });
      });
      cache.clear();
      return { code: 'updated' as const };
    },

    async requests(caller: Caller, id: string, page: number) {
      await mustFind(caller, id);
      await log.flush();
      const { rows, count } = await repo.requests(db, id, page, SCIM_REQUESTS_PAGE_SIZE);
      return {
        results: rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() })),
        pages: Math.max(1, Math.ceil(count / SCIM_REQUESTS_PAGE_SIZE)),
        count,
      };
    },

    /** The connector a SCIM request's bearer token belongs to, or undefined. */
    authenticate: (token: string) => cache.get(codes.candidates(token)),

    /** Queues the request's log line (written within a fraction of a second, in batches). */
    logRequest: (connectorId: string, r: Parameters<typeof log.add>[1]) => log.add(connectorId, r),

    /** Writes the queued log lines (on close, and before the log or last request time is read). */
    flushLog: () => log.flush(),
  };
}
export type ScimConnectorsService = ReturnType<typeof createScimConnectorsService>;
/** The connector a SCIM request authenticated as. */
export type ScimCaller = NonNullable<Awaited<ReturnType<ScimConnectorsService['authenticate']>>>;
