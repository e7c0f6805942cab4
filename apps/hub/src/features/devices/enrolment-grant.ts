import { AppError, type Db } from '@latchkey/runtime';
import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { z } from 'zod';
import { registrationsRepository } from '../registrations/index.ts';

/**
 * A member's enrolment grant: signed, like the console's aux grants, with the secret the team
 * shares with this Hub (kid = credential id), but for another audience, so a console grant can
 * never enrol a device nor the reverse. It names the member, so a device cannot claim to be
 * someone else's.
 */
export const ENROLMENT_AUDIENCE = 'latchkey-hub-enrolment';

const Claims = z.object({ email: z.string().min(1).max(254), team_slug: z.string().min(1) });

const invalid = () => new AppError('unauthorized', 'The enrolment grant is not valid for this Hub.', 401);

export async function verifyEnrolmentGrant(db: Db, token: string): Promise<{ email: string; team_slug: string }> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw invalid();
  }
  if (!kid) throw invalid();
  const registration = await registrationsRepository.findByCredential(db, kid);
  if (!registration) throw invalid();
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(registration.secret), {
      algorithms: ['HS256'],
      audience: ENROLMENT_AUDIENCE,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new AppError('token_expired', 'The enrolment grant has expired.', 401);
    throw invalid();
  }
  const claims = Claims.safeParse(payload);
  if (!claims.success || claims.data.team_slug !== registration.team_slug) throw invalid();
  return { email: claims.data.email.trim().toLowerCase(), team_slug: claims.data.team_slug };
}
