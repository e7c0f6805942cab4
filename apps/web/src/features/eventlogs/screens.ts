/** The event log screens (issue 12), one lazy chunk. */
export { EventLogs } from './EventLogs.tsx';
export { EventLogsSettings } from './EventLogsSettings.tsx';
