import { eventsIngestEndpoint } from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type DeviceGuard, requireDevice } from '../devices/index.ts';
import { createEventsService } from './events.service.ts';

/** Activity events from the apps, kept for the event logs service to read. */
export function eventsRoutes(app: FastifyInstance, deviceGuard: DeviceGuard, db: Db) {
  const events = createEventsService(db);
  registerEndpoint(app, eventsIngestEndpoint, deviceGuard, async ({ input, ctx }) =>
    events.ingest(requireDevice(ctx), input.events),
  );
}
