import { eventsIngestEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type DeviceGuard, requireDevice } from '../devices/index.ts';
import { createEventsService } from './events.service.ts';

/** Activity events from the apps, kept for the event logs service to read. */
export function eventsRoutes(router: Router, deviceGuard: DeviceGuard, db: Db) {
  const events = createEventsService(db);
  router.handle(eventsIngestEndpoint, deviceGuard, async ({ input, ctx }) => events.ingest(requireDevice(ctx), input.events));
}
