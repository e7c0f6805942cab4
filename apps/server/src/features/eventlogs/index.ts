// The event log feature's public entry: what other features may use (issue 12).
export { fromAction, plainDetail, recordEvent, recordEvents, type ServerEvent } from './record-event.ts';
