// The groups as SCIM reads and writes them (features/scim): the groups table's SQL stays here.
import type { Queryable } from '@latchkey/runtime';
import { pagedSelect } from '../../platform/paged-select.ts';

export interface ScimGroupRow {
  id: string;
  name: string;
  scim_external_id: string | null;
  scim_version: number;
  scim_managed: boolean;
  created_at: Date;
  updated_at: Date;
}

const GROUP = 'id, name, scim_external_id, scim_version, scim_managed, created_at, updated_at';

export const scimGroupsRepository = {
  /** One of the team's groups; `id` must be a uuid. */
  async find(q: Queryable, teamId: string, id: string, lock = false): Promise<ScimGroupRow | undefined> {
    const [row] = await q.query<ScimGroupRow>(
      `select ${GROUP} from groups where team_id = $1 and id = $2${lock ? ' for update' : ''}`,
      [teamId, id],
    );
    return row;
  },

  /** The team's groups where `where` (SQL over a groups row; $1 is the team) holds, a page of them in `orderBy` order. */
  page(q: Queryable, where: string, params: unknown[], orderBy: string, offset: number, limit: number) {
    return pagedSelect<ScimGroupRow>(q, `${GROUP} from groups where team_id = $1`, where, params, orderBy, offset, limit);
  },

  where(q: Queryable, where: string, params: unknown[]): Promise<ScimGroupRow[]> {
    return q.query<ScimGroupRow>(`select ${GROUP} from groups where team_id = $1 and ${where} order by lower(name), id`, params);
  },

  async create(q: Queryable, teamId: string, connectorId: string, name: string, externalId: string | null): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      `insert into groups (team_id, name, scim_connector_id, scim_external_id, scim_managed)
       values ($1, $2, $3, $4, true) returning id`,
      [teamId, name, connectorId, externalId],
    );
    return row?.id as string;
  },

  /** Renames and takes the group over for the connector (a console group an IdP writes to becomes its). */
  async update(q: Queryable, teamId: string, id: string, connectorId: string, name: string, externalId: string | null) {
    await q.query(
      `update groups set name = $3, scim_external_id = $4, scim_connector_id = $5, scim_managed = true,
         scim_version = scim_version + 1, updated_at = now() where team_id = $1 and id = $2`,
      [teamId, id, name, externalId, connectorId],
    );
  },

  /** Takes a group over for the connector (as {@link update} does) and moves its version. */
  async claim(q: Queryable, teamId: string, id: string, connectorId: string): Promise<void> {
    await q.query(
      `update groups set scim_connector_id = $3, scim_managed = true, scim_version = scim_version + 1, updated_at = now()
       where team_id = $1 and id = $2`,
      [teamId, id, connectorId],
    );
  },

  /** A revoked connector's groups become the console's again. */
  async release(q: Queryable, connectorId: string): Promise<void> {
    await q.query('update groups set scim_managed = false where scim_connector_id = $1', [connectorId]);
  },

  async nameTaken(q: Queryable, teamId: string, name: string, exceptId?: string): Promise<boolean> {
    const rows = await q.query('select 1 from groups where team_id = $1 and lower(name) = lower($2) and id::text <> $3', [
      teamId,
      name,
      exceptId ?? '',
    ]);
    return rows.length > 0;
  },

  async remove(q: Queryable, teamId: string, id: string): Promise<void> {
    await q.query('delete from groups where team_id = $1 and id = $2', [teamId, id]);
  },
};
