// The integration feature's public entry: what other features may use.

export type { HubClient } from './hub-client.ts';
export type { HubSessionEnder, SessionsEnded } from './hub-session-ender.ts';
export { liveServers } from './live-state.ts';
export type { ServerKey } from './server-key.ts';
