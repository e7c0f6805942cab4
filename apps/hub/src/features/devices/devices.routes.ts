import { deviceRegisterEndpoint } from '@latchkey/contracts';
import { type Db, type Router, unauthorized } from '@latchkey/runtime';
import type { DeviceGuard } from './device-guard.ts';
import { createDevicesService } from './devices.service.ts';

/** Device registration: an enrolment grant in, a device credential out (shown once, stored hashed). */
export function devicesRoutes(router: Router, guard: DeviceGuard, db: Db) {
  const devices = createDevicesService(db);
  router.handle(deviceRegisterEndpoint, guard, async ({ input, request }) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthorized('An enrolment grant is required.');
    return devices.register(header.slice(7), input);
  });
}
