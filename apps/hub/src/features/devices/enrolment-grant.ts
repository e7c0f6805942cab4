import { AppError, JWS_TYP, jwsKid, publicKeyOf, type Queryable, spendNonce, verifyJws } from '@latchkey/runtime';
import { z } from 'zod';
import { registrationsRepository } from '../registrations/index.ts';

/**
 * A member's enrolment grant: signed, like the console's aux grants, with the licence server's
 * Ed25519 key (kid = credential id), but with its own type and audience, so a console grant can
 * never enrol a device nor the reverse. It names the member, so a device cannot claim to be
 * someone else's, and it is single use (its `jti`), so a grant that leaks enrols nothing more.
 */
export const ENROLMENT_AUDIENCE = 'latchkey-hub-enrolment';

const Claims = z.object({
  aud: z.literal(ENROLMENT_AUDIENCE),
  jti: z.string().min(16).max(200),
  exp: z.number(),
  email: z.string().min(1).max(254),
  team_slug: z.string().min(1),
});

const invalid = () => new AppError('unauthorized', 'The enrolment grant is not valid for this Hub.', 401);

/**
 * Checks the grant and spends it. Run it in the transaction that registers the device: two uses at
 * once wait on one another, exactly one registers, and a registration that fails spends nothing.
 */
export async function spendEnrolmentGrant(db: Queryable, token: string): Promise<{ email: string; team_slug: string }> {
  const kid = jwsKid(token, JWS_TYP.enrolment);
  if (!kid) throw invalid();
  const registration = await registrationsRepository.findByCredential(db, kid);
  const key = publicKeyOf(registration?.server_key);
  if (!registration || !key) throw invalid();
  const claims = Claims.safeParse(verifyJws(token, JWS_TYP.enrolment, key));
  if (!claims.success || claims.data.team_slug !== registration.team_slug) throw invalid();
  if (claims.data.exp * 1000 <= Date.now()) throw new AppError('token_expired', 'The enrolment grant has expired.', 401);
  if (!(await spendNonce(db, `enrolment:${claims.data.jti}`, claims.data.exp)))
    throw new AppError(
      'unauthorized',
      'This enrolment grant has already been used: ask for a new one to enrol another device.',
      401,
    );
  return { email: claims.data.email.trim().toLowerCase(), team_slug: claims.data.team_slug };
}
