// The event logs feature's public entry: what other features may use.
export { type HubEvent, recordHubEvents } from './events.service.ts';
