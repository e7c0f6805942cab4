import { eventChainRepository } from './event-chain.repository.ts';
import { eventReadRepository } from './event-read.repository.ts';
import { eventRetentionRepository } from './event-retention.repository.ts';
import { eventSearchPageRepository } from './event-search-page.repository.ts';
import { eventSettingsRepository } from './event-settings.repository.ts';

export { isUnfiltered } from './event-filter-sql.ts';
export { type NewEvent, partitionName, type StoredEvent } from './event-rows.ts';

/**
 * The event log's repository, the only SQL on its tables (event_log, event_chain_heads,
 * event_time_seqs, event_ids, event_log_settings, event_pull_tokens; the search index has
 * event-search.repository.ts). Made of one part per job, each in its own file.
 */
export const eventsRepository = {
  ...eventChainRepository,
  ...eventReadRepository,
  ...eventSearchPageRepository,
  ...eventRetentionRepository,
  ...eventSettingsRepository,
};
