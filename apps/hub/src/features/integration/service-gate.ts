import type { AuxService } from '@latchkey/contracts';
import { AppError, type Queryable } from '@latchkey/runtime';
import { registrationsRepository } from '../registrations/registrations.repository.ts';

/**
 * Refuses a Hub call for a service the team has not switched on here. Every Hub feature of an
 * auxiliary service (audit, sharing, recovery, event logs) calls this before doing anything.
 */
export async function requireService(q: Queryable, teamSlug: string, service: AuxService): Promise<void> {
  const enabled = await registrationsRepository.enabledForTeam(q, teamSlug);
  if (!enabled.includes(service)) {
    throw new AppError('service_disabled', `The ${service} service is switched off for this team on this Hub.`);
  }
}
