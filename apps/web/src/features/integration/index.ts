// The integration feature's public entry: the event log settings switch their Hub service with it.
export { switchAuxService } from './api.ts';
