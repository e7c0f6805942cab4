// The team feature's public entry: what other features may use; its other files are internals.

export { licenceTotal, lockLicences, recordLicencesTaken } from './licences.ts';
export { sessionContexts } from './session-contexts.ts';
export * from './team.repository.ts';
