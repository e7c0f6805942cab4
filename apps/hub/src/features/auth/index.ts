// The auth feature's public entry: what other features may use.
export { hubSessionsRepository } from './hub-sessions.repository.ts';
export type { HubSessionsService } from './hub-sessions.service.ts';
export type { RoleCheck } from './server-check.ts';
