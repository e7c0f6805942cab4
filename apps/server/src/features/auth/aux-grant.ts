import { randomUUID } from 'node:crypto';
import type { Scope } from '@latchkey/contracts';
import { SignJWT } from 'jose';
import type { HubRow } from '../team/index.ts';

export const AUX_GRANT_AUDIENCE = 'latchkey-hub';
const AUX_GRANT_SECONDS = 60;

/**
 * The aux code of a sign-in: a one-minute grant, signed with the secret the team shares with its
 * Hub, that the console exchanges at the Hub (`auth/token/`) for the Hub's own tokens.
 */
export async function issueAuxGrant(hub: HubRow, who: { userId: string; email: string; teamSlug: string; scopes: Scope[] }) {
  const expiresAt = Date.now() + AUX_GRANT_SECONDS * 1000;
  const access = await new SignJWT({ email: who.email, team_slug: who.teamSlug, scopes: who.scopes })
    .setProtectedHeader({ alg: 'HS256', kid: hub.credential_id })
    .setSubject(who.userId)
    // One exchange per grant: the Hub records the jti (apps/hub/src/features/auth/aux-grant.ts).
    .setJti(randomUUID())
    .setAudience(AUX_GRANT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(new TextEncoder().encode(hub.secret));
  return { server_url: hub.server_url, access, expires_at: expiresAt, team_slug: who.teamSlug };
}
