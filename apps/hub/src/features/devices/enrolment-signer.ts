import { type KeyObject, randomUUID } from 'node:crypto';
import { JWS_TYP, signJws } from '@latchkey/runtime';
import { ENROLMENT_AUDIENCE } from './enrolment-grant.ts';

/**
 * Signs an enrolment grant for a member, as the licence server does for its members' apps (with
 * its Ed25519 key); the tests here sign with a test server key. Ten minutes is enough for an app
 * to register; its `jti` makes it enrol one device.
 */
export function signEnrolmentGrant(o: { credentialId: string; key: KeyObject; teamSlug: string; email: string }): string {
  const now = Math.floor(Date.now() / 1000);
  return signJws(o.key, JWS_TYP.enrolment, o.credentialId, {
    aud: ENROLMENT_AUDIENCE,
    jti: randomUUID(),
    email: o.email,
    team_slug: o.teamSlug,
    iat: now,
    exp: now + 600,
  });
}
