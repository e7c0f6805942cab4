import { randomUUID } from 'node:crypto';
import type { OrganizationType, Scope, TeamType } from '@latchkey/contracts';
import { JWS_TYP, signJws } from '@latchkey/runtime';
import type { HubRow, ServerKey } from '../integration/index.ts';

const AUX_GRANT_AUDIENCE = 'latchkey-hub';
const AUX_GRANT_SECONDS = 60;

/**
 * The aux code of a sign-in: a one-minute grant, signed with the server's own Ed25519 key (which
 * the Hub knows only the public half of), that the console exchanges at the Hub (`auth/token/`)
 * for the Hub's own tokens. It names the console session, so the Hub session ends with it and
 * never outlives its absolute expiry.
 */
export function issueAuxGrant(
  key: ServerKey,
  hub: Pick<HubRow, 'credential_id' | 'server_url'>,
  who: {
    userId: string;
    email: string;
    teamSlug: string;
    scopes: Scope[];
    sessionId: string;
    sessionExpiresAt: Date;
    /** The team's plan: the Hub applies the access rules' team and organisation types with it. */
    teamType: TeamType;
    organizationType: OrganizationType;
  },
) {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = (now + AUX_GRANT_SECONDS) * 1000;
  const access = signJws(key.signing, JWS_TYP.grant, hub.credential_id, {
    aud: AUX_GRANT_AUDIENCE,
    sub: who.userId,
    // One exchange per grant: the Hub records the jti (apps/hub/src/features/auth/aux-grant.ts).
    jti: randomUUID(),
    iat: now,
    exp: now + AUX_GRANT_SECONDS,
    email: who.email,
    team_slug: who.teamSlug,
    scopes: who.scopes,
    sid: who.sessionId,
    session_exp: Math.floor(who.sessionExpiresAt.getTime() / 1000),
    team_type: who.teamType,
    organization_type: who.organizationType,
  });
  return { server_url: hub.server_url, access, expires_at: expiresAt, team_slug: who.teamSlug };
}
