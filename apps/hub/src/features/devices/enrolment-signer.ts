import { SignJWT } from 'jose';
import { ENROLMENT_AUDIENCE } from './enrolment-grant.ts';

/**
 * Signs an enrolment grant for a member, as whoever holds the team's Hub credential does (the
 * licence server for its members' apps; the demo seed and the tests here). Ten minutes is
 * enough for an app to register.
 */
export function signEnrolmentGrant(o: {
  credentialId: string;
  secret: string;
  teamSlug: string;
  email: string;
}): Promise<string> {
  return new SignJWT({ email: o.email, team_slug: o.teamSlug })
    .setProtectedHeader({ alg: 'HS256', kid: o.credentialId })
    .setAudience(ENROLMENT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(o.secret));
}
