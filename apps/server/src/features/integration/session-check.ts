import { type EndpointOutput, hubSessionCheckEndpoint } from '@latchkey/contracts';
import { acceptSignedCall, bearerOf, type Db, JWS_TYP, jwsKid, publicKeyOf, unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import { integrationRepository as repo } from './integration.repository.ts';

type Verdict = EndpointOutput<typeof hubSessionCheckEndpoint>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ended: Verdict = { live: false, scopes: [], absolute_expires_at: null };

/**
 * A Hub asking, in a call signed with its own key (the one it gave when the server registered
 * there), whether a console session of its team is still live and what the admin may do now.
 */
export async function checkConsoleSession(
  db: Db,
  request: FastifyRequest,
  input: { team_slug: string; sid: string; user_id: string },
): Promise<Verdict> {
  const token = bearerOf(request.headers.authorization);
  const kid = token ? jwsKid(token, JWS_TYP.call) : null;
  const hub = kid ? await repo.findSetUp(db, kid) : undefined;
  const key = publicKeyOf(hub?.hub_key);
  const invalid = () => unauthorized('The call is not signed by a Hub of this team.');
  if (!token || !hub || !key || hub.team_slug !== input.team_slug) throw invalid();
  const expected = { path: hubSessionCheckEndpoint.path, teamSlug: input.team_slug, body: request.body };
  if (!(await acceptSignedCall(db, token, key, expected))) throw invalid();

  if (!UUID.test(input.sid)) return ended;
  const session = await repo.consoleSession(db, input.sid);
  if (
    !session ||
    session.team_id !== hub.team_id ||
    session.user_id !== input.user_id ||
    session.revoked_at ||
    session.absolute_expires_at.getTime() <= Date.now() ||
    !session.scopes?.length
  )
    return ended;
  return { live: true, scopes: session.scopes, absolute_expires_at: session.absolute_expires_at.getTime() };
}
