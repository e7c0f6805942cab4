// The integration feature's public entry: what other features may use.

export type { HubClient } from './hub-client.ts';
export type { HubSessionEnder, SessionsEnded } from './hub-session-ender.ts';
// Event logs (issue 12): the Hubs the server's events go to.
export { integrationRepository } from './integration.repository.ts';
export { liveServers } from './live-state.ts';
export type { ServerKey } from './server-key.ts';
