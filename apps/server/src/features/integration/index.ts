// The integration feature's public entry: what other features may use.
export { liveServers } from './live-state.ts';
