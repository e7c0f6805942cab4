/** The event log and its settings, one lazy chunk. */

export { AlertRules } from './alerts/AlertRules.tsx';
export { EventLogs } from './EventLogs.tsx';
export { EventLogsSettings } from './EventLogsSettings.tsx';
