import { timingSafeEqual } from 'node:crypto';
import { hubConnectorEndpoint } from '@latchkey/contracts';
import { AppError, type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { HubGuard } from '../../http/guard.ts';
import { registrationsRepository } from '../registrations/index.ts';
import { servicesFor } from './capabilities.ts';

const sameKey = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Unprotected: the console checks, before connecting, that this Hub serves its team, and may
 * register the team's credential here when it also brings the operator's setup key.
 */
export function connectorRoutes(app: FastifyInstance, guard: HubGuard, db: Db, version: string, setupKey?: string) {
  const services = servicesFor(version);
  registerEndpoint(app, hubConnectorEndpoint, guard, async ({ input }) => {
    if (input.register) {
      if (!setupKey)
        throw new AppError('registration_closed', 'This Hub has no setup key: its operator registers teams.').shows(
          'errors.registration_closed',
        );
      if (!sameKey(input.register.setup_key, setupKey))
        throw new AppError('setup_key_invalid', 'The setup key is not correct.').shows('errors.setup_key_invalid');
      const saved = await registrationsRepository.upsert(db, {
        team_slug: input.team_slug,
        credential_id: input.register.credential_id,
        secret: input.register.secret,
      });
      if (!saved)
        throw new AppError('not_allowed', 'That credential is registered here for another team.').shows(
          'errors.credential_other_team',
        );
    }
    return { registered: await registrationsRepository.existsForTeam(db, input.team_slug), version, services };
  });
}
