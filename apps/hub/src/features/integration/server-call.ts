import { AppError, acceptSignedCall, bearerOf, type Db, JWS_TYP, jwsKid, publicKeyOf, unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import { type RegistrationRow, registrationsRepository } from '../registrations/index.ts';

const invalid = () => unauthorized("The call is not signed by this team's server.");

/**
 * Authenticates a call from the licence server: signed with the server key of the registration
 * its kid names, for this path and the team in the body, fresh, unreplayed, body unchanged.
 */
export async function verifyServerCall(
  db: Db,
  request: FastifyRequest,
  path: string,
  teamSlug: string,
): Promise<RegistrationRow> {
  const token = bearerOf(request.headers.authorization);
  const kid = token ? jwsKid(token, JWS_TYP.call) : null;
  if (!token || !kid) throw invalid();
  const registration = await registrationsRepository.findByCredential(db, kid);
  if (!registration)
    throw new AppError('hub_not_registered', 'This Hub is not registered for that credential.', 403).shows(
      'errors.hub_not_registered',
    );
  const key = publicKeyOf(registration.server_key);
  if (!key || registration.team_slug !== teamSlug) throw invalid();
  if (!(await acceptSignedCall(db, token, key, { path, teamSlug, body: request.body }))) throw invalid();
  return registration;
}
