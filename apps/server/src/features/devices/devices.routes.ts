import { memberDevicesEndpoint } from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import { createDevicesService } from './devices.service.ts';

export const DEVICES_ENDPOINTS = [memberDevicesEndpoint];

export function devicesRoutes(app: FastifyInstance, guard: Guard, db: Db) {
  const devices = createDevicesService(db);
  registerEndpoint(app, memberDevicesEndpoint, guard, ({ ctx, input }) =>
    devices.ofMember(requireCaller(ctx), input.email, input.group_id),
  );
}
