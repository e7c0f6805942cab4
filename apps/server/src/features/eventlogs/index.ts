// The event log feature's public entry: the one way a feature records what happened (in its own transaction).
export { fromAction, plainDetail, recordAction, recordActions, recordEvent, type ServerEvent } from './record-event.ts';
export { recordSecurityEvent, type SecurityEvent, storeSecurityEvent } from './security-events.ts';
