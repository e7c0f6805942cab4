import type { AuxService, ServiceState } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface HubRow {
  id: string;
  server_url: string;
  credential_id: string;
  hub_version: string | null;
  services: Partial<Record<AuxService, ServiceState>>;
}

/** A team's Hubs as sign-in and the request guard read them (the hubs table is this room's). */
export const teamHubsRepository = {
  /** The team's Hubs that are set up (a credential waiting for setup has no address yet), first set up first. */
  async setUp(q: Queryable, teamId: string): Promise<HubRow[]> {
    return q.query(
      `select id, server_url, credential_id, hub_version, services from hubs
       where team_id = $1 and server_url is not null and hub_key is not null order by created_at, id`,
      [teamId],
    );
  },

  /** The services of the team's first Hub with an address (what the console's access rules read); null without one. */
  async firstServices(q: Queryable, teamId: string): Promise<Partial<Record<AuxService, ServiceState>> | null> {
    const [row] = await q.query<{ first_hub_services: Partial<Record<AuxService, ServiceState>> }>(
      `select services as first_hub_services from hubs where team_id = $1 and server_url is not null
       order by created_at, id limit 1`,
      [teamId],
    );
    return row?.first_hub_services ?? null;
  },
};
