import { deviceRegisterEndpoint } from '@latchkey/contracts';
import { type Db, forbidden, hashToken, randomToken, registerEndpoint, unauthorized } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { DeviceGuard } from './device-guard.ts';
import { devicesRepository } from './devices.repository.ts';
import { verifyEnrolmentGrant } from './enrolment-grant.ts';

/** Device registration: an enrolment grant in, a device credential out (shown once, stored hashed). */
export function devicesRoutes(app: FastifyInstance, guard: DeviceGuard, db: Db) {
  registerEndpoint(app, deviceRegisterEndpoint, guard, async ({ input, request }) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthorized('An enrolment grant is required.');
    const grant = await verifyEnrolmentGrant(db, header.slice(7));
    if (grant.team_slug !== input.team_slug) throw forbidden('The enrolment grant is for another team.');
    const secret = randomToken();
    const id = await devicesRepository.insert(db, {
      team_slug: grant.team_slug,
      email: grant.email,
      name: input.name,
      os: input.os,
      app_version: input.app_version,
      public_key: input.public_key ?? null,
      secret_hash: hashToken(secret),
    });
    return { device_id: id, device_secret: secret, email: grant.email };
  });
}
