import type { AuxService, Endpoint } from '@latchkey/contracts';
import { AppError, type Queryable } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import { registrationsRepository } from '../registrations/index.ts';

/**
 * Refuses a Hub call for a service the team has not switched on here. Every Hub feature of an
 * auxiliary service (audit, sharing, recovery, event logs) calls this before doing anything.
 */
export async function requireService(q: Queryable, teamSlug: string, service: AuxService): Promise<void> {
  const enabled = await registrationsRepository.enabledForTeam(q, teamSlug);
  if (!enabled.includes(service)) {
    throw new AppError('service_disabled', `The ${service} service is switched off for this team on this Hub.`).shows(
      'errors.service_disabled',
      { service },
    );
  }
}

type TeamGuard<C extends { teamSlug: string }> = (request: FastifyRequest, endpoint: Endpoint) => Promise<C | null>;

/** A guard that also refuses every call of a team whose `service` is switched off on this Hub. */
export function onlyWithService<C extends { teamSlug: string }>(
  guard: TeamGuard<C>,
  q: Queryable,
  service: AuxService,
): TeamGuard<C> {
  return async (request, endpoint) => {
    const caller = await guard(request, endpoint);
    if (caller) await requireService(q, caller.teamSlug, service);
    return caller;
  };
}
