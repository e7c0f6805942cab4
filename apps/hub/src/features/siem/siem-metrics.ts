import type { ProgramGauge, Queryable } from '@latchkey/runtime';
import { siemRepository } from './siem.repository.ts';

/** /metrics: SIEM destinations by whether they deliver or fail (an alert fires on failing ones). */
export function siemDestinationsGauge(db: Queryable): ProgramGauge {
  return {
    name: 'latchkey_siem_destinations',
    help: 'Switched-on SIEM destinations by state: delivering (last batch confirmed) or failing (waiting for a retry).',
    labelNames: ['state'],
    async read() {
      const { delivering, failing } = await siemRepository.deliveryStates(db);
      return [
        { labels: { state: 'delivering' }, value: delivering },
        { labels: { state: 'failing' }, value: failing },
      ];
    },
  };
}
