import { eventsIngestEndpoint } from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type DeviceGuard, requireDevice } from '../devices/device-guard.ts';
import { eventsRepository } from './events.repository.ts';

/** Activity events from the apps, kept for the event logs service to read. */
export function eventsRoutes(app: FastifyInstance, deviceGuard: DeviceGuard, db: Db) {
  registerEndpoint(app, eventsIngestEndpoint, deviceGuard, async ({ input, ctx }) => {
    await eventsRepository.append(db, requireDevice(ctx), input.events);
    return { accepted: input.events.length };
  });
}
