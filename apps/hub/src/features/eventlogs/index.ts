// The event log's public entry: what other features (and the composition root) may use.

export { eventLogReads } from './event-log-reads.ts';
export type { StoredEvent } from './event-rows.ts';
export { eventlogsRoutes } from './eventlogs.routes.ts';
export { createEventsService } from './eventlogs.service.ts';
export { type HubEvent, type OwnHubEvent, recordHubEvents } from './record-events.ts';
export { savedSearchesRoutes } from './saved-searches.routes.ts';
export { createSavedSearches } from './saved-searches.service.ts';
export { createSearchIndexer } from './search-indexer.ts';
