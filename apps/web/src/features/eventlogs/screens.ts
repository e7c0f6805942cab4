/** The event log screens, one lazy chunk. */
export { EventLogs } from './EventLogs.tsx';
export { EventLogsSettings } from './EventLogsSettings.tsx';
