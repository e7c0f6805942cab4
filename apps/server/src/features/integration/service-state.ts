import {
  AUX_SERVICES,
  type AuxService,
  type HubServer,
  type HubState,
  SERVICE_STATUS,
  type ServiceState,
} from '@latchkey/contracts';

export type ServiceStates = Partial<Record<AuxService, ServiceState>>;

const on = { enabled: true, status: SERVICE_STATUS.active };

/** The states right after a Hub is set up: integration on, plus whatever the Hub already runs for the team. */
export function statesAfterSetup(hub: HubState): ServiceStates {
  const states: ServiceStates = { integration: on };
  for (const s of hub.enabled) states[s] = on;
  return states;
}

/**
 * The live status of each switched-on service from what the Hub said: running there → 2, not
 * running there or no answer at all → 3 (error). Switched-off services keep their state.
 */
export function liveStates(current: ServiceStates, hub: HubState | null): ServiceStates {
  const next: ServiceStates = {};
  for (const s of AUX_SERVICES) {
    const state = current[s];
    if (!state?.enabled) continue;
    const running = hub !== null && (s === 'integration' || hub.enabled.includes(s));
    next[s] = { enabled: true, status: running ? SERVICE_STATUS.active : SERVICE_STATUS.error };
  }
  return next;
}

/** The server's record of a Hub, as the console reads it. */
export function toHubServer(
  row: { server_url: string | null; credential_id: string; hub_version: string | null; services: ServiceStates },
  reachable: boolean,
): HubServer {
  return {
    server_url: row.server_url ?? '',
    credential_id: row.credential_id,
    hub_version: row.hub_version,
    reachable,
    services: row.services,
  };
}
