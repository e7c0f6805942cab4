// The event log feature's public entry: the one way a feature records what happened (in its own transaction).
export { fromAction, plainDetail, recordAction, recordEvent, recordEvents, type ServerEvent } from './record-event.ts';
