// The integration feature's public entry: what other features may use.

export type { HubClient } from './hub-client.ts';
// The doctor's look at the set-up Hubs (doctor.ts).
export { hubReachability, hubTlsEndpoints } from './hub-reachability.ts';
export type { HubSessionEnder } from './hub-session-ender.ts';
export type { IntegrationLookups } from './integration-lookups.ts';
// The Hubs the server's events go to (the event log's forwarder).
export { liveServers } from './live-state.ts';
export type { ServerKey } from './server-key.ts';
// A Hub's signed call to this server (directory sync's state and batches).
export { acceptHubCall } from './signed-hub-call.ts';
// A team's set-up Hubs, for sign-in's aux grant and the request guard's session context.
export { type HubRow, teamHubsRepository } from './team-hubs.repository.ts';
