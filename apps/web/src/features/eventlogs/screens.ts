/** The event log and its settings, one lazy chunk. */
export { EventLogs } from './EventLogs.tsx';
export { EventLogsSettings } from './EventLogsSettings.tsx';
