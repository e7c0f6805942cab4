import { eventChainRepository } from './event-chain.repository.ts';
import { eventReadRepository } from './event-read.repository.ts';

/**
 * What the SIEM delivery and the alert rules read of a team's log, in the caller's connection or transaction: the
 * chain's head, the events after a cursor (oldest first), events by seq, where a backfill from a date starts, and
 * which teams' heads the pump may deliver.
 */
export const eventLogReads = {
  head: eventChainRepository.head,
  after: eventReadRepository.after,
  bySeqs: eventReadRepository.bySeqs,
  firstSeqSince: eventReadRepository.firstSeqSince,
  siemHeads: eventChainRepository.siemHeads,
};
