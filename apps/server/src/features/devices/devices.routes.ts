import { memberDevicesEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import { createDevicesService } from './devices.service.ts';

export function devicesRoutes(router: Router, guard: Guard, db: Db) {
  const devices = createDevicesService(db);
  router.handle(memberDevicesEndpoint, guard, ({ ctx, input }) =>
    devices.ofMember(requireCaller(ctx), input.email, input.group_id),
  );
}
