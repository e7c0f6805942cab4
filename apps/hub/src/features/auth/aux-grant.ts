import { SCOPES } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { z } from 'zod';
import { type RegistrationRow, registrationsRepository } from '../registrations/index.ts';

/** Must match the audience the licence server puts on its grants (server: features/auth/aux-grant.ts). */
export const AUX_GRANT_AUDIENCE = 'latchkey-hub';

const GrantClaims = z.object({
  sub: z.string().min(1),
  jti: z.string().min(16),
  exp: z.number(),
  email: z.string().min(1),
  team_slug: z.string().min(1),
  scopes: z.array(z.enum(SCOPES)).min(1),
});
export type AuxGrant = z.infer<typeof GrantClaims> & { registration: RegistrationRow };

const invalidGrant = () => new AppError('unauthorized', 'The sign-in grant is not valid for this Hub.', 401);

/**
 * Verifies the licence server's one-minute grant: the kid names the registration whose shared
 * secret must have signed it, and the grant must be for that registration's team.
 */
export async function verifyAuxGrant(db: Db, token: string): Promise<AuxGrant> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw invalidGrant();
  }
  if (!kid) throw invalidGrant();
  const registration = await registrationsRepository.findByCredential(db, kid);
  if (!registration)
    throw new AppError('hub_not_registered', 'This Hub is not registered for that credential.', 403).shows(
      'errors.hub_not_registered',
    );

  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(registration.secret), {
      algorithms: ['HS256'],
      audience: AUX_GRANT_AUDIENCE,
      requiredClaims: ['exp', 'sub'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new AppError('token_expired', 'The sign-in grant has expired.', 401);
    throw invalidGrant();
  }
  const claims = GrantClaims.safeParse(payload);
  if (!claims.success || claims.data.team_slug !== registration.team_slug) throw invalidGrant();
  await spendGrant(db, claims.data.jti, claims.data.exp);
  return { ...claims.data, registration };
}

/** Records the grant's jti; a second exchange of the same grant is refused. */
async function spendGrant(db: Db, jti: string, exp: number) {
  await db.query('delete from used_aux_grants where expires_at < now()');
  const spent = await db.query(
    'insert into used_aux_grants (jti, expires_at) values ($1, to_timestamp($2)) on conflict (jti) do nothing returning jti',
    [jti, exp],
  );
  if (spent.length === 0) throw new AppError('unauthorized', 'This sign-in grant has already been used.', 401);
}
