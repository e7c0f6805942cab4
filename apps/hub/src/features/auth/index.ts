// The auth feature's public entry: what other features may use.
export type { HubSessionsService } from './hub-sessions.service.ts';
export type { RoleCheck } from './server-check.ts';
