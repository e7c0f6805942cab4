import { SERVICE_STATUS } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export const hubServicesRepository = {
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
