import type { deviceRegisterEndpoint, EndpointArgs } from '@latchkey/contracts';
import { type Db, forbidden, hashToken, randomToken } from '@latchkey/runtime';
import { devicesRepository } from './devices.repository.ts';
import { spendEnrolmentGrant } from './enrolment-grant.ts';

/** Device registration: an enrolment grant in, a device credential out (shown once, stored hashed). */
export function createDevicesService(db: Db) {
  return {
    async register(grantToken: string, input: EndpointArgs<typeof deviceRegisterEndpoint>) {
      const secret = randomToken();
      return db.transaction(async (tx) => {
        const grant = await spendEnrolmentGrant(tx, grantToken);
        if (grant.team_slug !== input.team_slug) throw forbidden('The enrolment grant is for another team.');
        const id = await devicesRepository.insert(tx, {
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
    },
  };
}
