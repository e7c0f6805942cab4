import { ORGANIZATION_TYPES, SCOPES, ScopeExpirySchema, TEAM_TYPES } from '@latchkey/contracts';
import { AppError, type Db, JWS_TYP, jwsKid, publicKeyOf, spendNonce, verifyJws } from '@latchkey/runtime';
import { z } from 'zod';
import { type RegistrationRow, registrationsRepository } from '../registrations/index.ts';

/** Must match the audience the licence server puts on its grants (server: features/auth/aux-grant.ts). */
const AUX_GRANT_AUDIENCE = 'latchkey-hub';

const GrantClaims = z.object({
  aud: z.literal(AUX_GRANT_AUDIENCE),
  sub: z.string().min(1),
  jti: z.string().min(16),
  iat: z.number(),
  exp: z.number(),
  email: z.string().min(1),
  team_slug: z.string().min(1),
  scopes: z.array(z.enum(SCOPES)).min(1),
  /** The console session the grant came from; its end ends the Hub session. */
  sid: z.string().min(1),
  /** Epoch seconds: the console session's absolute expiry, which the Hub session never outlives. */
  session_exp: z.number(),
  /**
   * The team's plan, so the Hub holds the access rules' team and organisation types as the server
   * does. Absent from an older server's grants: the Hub then refuses the plan-gated calls.
   */
  team_type: z.enum(TEAM_TYPES).optional(),
  organization_type: z.enum(ORGANIZATION_TYPES).optional(),
  /** When each time-bound scope falls away (epoch ms): just-in-time elevations. */
  scope_expiry: ScopeExpirySchema.optional(),
});
export type AuxGrant = z.infer<typeof GrantClaims> & { registration: RegistrationRow };

const invalidGrant = () => new AppError('unauthorized', 'The sign-in grant is not valid for this Hub.', 401);

/**
 * Verifies the licence server's one-minute grant: EdDSA only, signed by the server key stored on
 * the registration its kid names, for that registration's team. Scopes come from nowhere else.
 */
export async function verifyAuxGrant(db: Db, token: string): Promise<AuxGrant> {
  const kid = jwsKid(token, JWS_TYP.grant);
  if (!kid) throw invalidGrant();
  const registration = await registrationsRepository.findByCredential(db, kid);
  if (!registration)
    throw new AppError('hub_not_registered', 'This Hub is not registered for that credential.', 403).shows(
      'errors.hub_not_registered',
    );
  const key = publicKeyOf(registration.server_key);
  const payload = key ? verifyJws(token, JWS_TYP.grant, key) : null;
  const claims = GrantClaims.safeParse(payload);
  if (!claims.success || claims.data.team_slug !== registration.team_slug) throw invalidGrant();
  const now = Date.now() / 1000;
  if (claims.data.exp <= now) throw new AppError('token_expired', 'The sign-in grant has expired.', 401);
  // A grant is a minute long; anything claiming more was not made by the server.
  if (claims.data.exp - claims.data.iat > 120 || claims.data.iat > now + 30) throw invalidGrant();
  // One exchange per grant: a grant leaked from the browser within its minute opens nothing more.
  if (!(await spendNonce(db, `grant:${claims.data.jti}`, claims.data.exp)))
    throw new AppError('unauthorized', 'This sign-in grant has already been used.', 401);
  return { ...claims.data, registration };
}
