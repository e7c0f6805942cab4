import type { Db } from '@latchkey/runtime';
import type { DeviceCaller } from '../devices/index.ts';
import { eventsRepository } from './events.repository.ts';

type Event = { type: string; occurred_at: string; detail: Record<string, unknown> };

/** Activity events from the apps, kept for the event logs service to read. */
export function createEventsService(db: Db) {
  return {
    async ingest(device: DeviceCaller, events: Event[]) {
      await eventsRepository.append(db, device, events);
      return { accepted: events.length };
    },
  };
}
