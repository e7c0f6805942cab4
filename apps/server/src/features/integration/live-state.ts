import { AUX_SERVICES, type HubServer, type HubState } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import type { HubClient } from './hub-client.ts';
import { integrationRepository as repo } from './integration.repository.ts';
import { liveStates, toHubServer } from './service-state.ts';

/**
 * The live state of every set-up Hub of the team: the server asks each Hub now and records what
 * it finds, so the route guards (console and server) follow a Hub that stopped or came back.
 */
export async function liveServers(db: Db, hubClient: HubClient, caller: Caller): Promise<HubServer[]> {
  const rows = (await repo.list(db, caller.team.id)).filter((r) => r.server_url && r.hub_key);
  return Promise.all(
    rows.map(async (row) => {
      let hub: HubState | null = null;
      let reachable = true;
      try {
        hub = await hubClient.verify({ ...row, server_url: row.server_url as string }, caller.team.slug);
      } catch (error) {
        reachable = !(error instanceof AppError && error.code === 'aux_server_not_connected');
      }
      const live = liveStates(row.services, hub);
      const changed = AUX_SERVICES.some((s) => live[s] && live[s].status !== row.services[s]?.status);
      if (changed || (hub && hub.version !== row.hub_version)) await repo.mergeServices(db, row.id, live, hub?.version);
      return toHubServer(
        { ...row, hub_version: hub?.version ?? row.hub_version, services: { ...row.services, ...live } },
        reachable,
      );
    }),
  );
}
