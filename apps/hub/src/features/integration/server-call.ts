import { SERVER_CALL_AUDIENCE } from '@latchkey/contracts';
import { AppError, type Db, unauthorized } from '@latchkey/runtime';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { type RegistrationRow, registrationsRepository } from '../registrations/index.ts';

const invalid = () => unauthorized('The call is not signed by a credential of this team.');

/**
 * Authenticates a call from the licence server: a one-minute HS256 token whose kid names the
 * registration and which is signed with that registration's secret, for the team in the body.
 */
export async function verifyServerCall(db: Db, header: string | undefined, teamSlug: string): Promise<RegistrationRow> {
  if (!header?.startsWith('Bearer ')) throw invalid();
  const token = header.slice(7);
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw invalid();
  }
  const registration = kid ? await registrationsRepository.findByCredential(db, kid) : undefined;
  if (!registration)
    throw new AppError('hub_not_registered', 'This Hub is not registered for that credential.', 403).shows(
      'errors.hub_not_registered',
    );
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(registration.secret), {
      algorithms: ['HS256'],
      audience: SERVER_CALL_AUDIENCE,
      requiredClaims: ['exp'],
    });
    if (payload.team_slug !== teamSlug || registration.team_slug !== teamSlug) throw invalid();
  } catch {
    throw invalid();
  }
  return registration;
}
