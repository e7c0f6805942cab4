import {
  type ErrorReply,
  type HubState,
  hubSetServicesEndpoint,
  hubVerifyEndpoint,
  SERVER_CALL_AUDIENCE,
} from '@latchkey/contracts';
import { AppError } from '@latchkey/runtime';
import { SignJWT } from 'jose';
import { userUrlFetch } from '../../platform/outbound.ts';

const TIMEOUT_MS = 5_000;

export interface HubTarget {
  server_url: string;
  credential_id: string;
  secret: string;
}

async function sign(hub: HubTarget, teamSlug: string): Promise<string> {
  return new SignJWT({ team_slug: teamSlug })
    .setProtectedHeader({ alg: 'HS256', kid: hub.credential_id })
    .setAudience(SERVER_CALL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(new TextEncoder().encode(hub.secret));
}

/**
 * Asks the team's Hub over real HTTP, signed with the credential. Whatever goes wrong becomes a
 * toggle-service code: no answer → aux_server_not_connected; the Hub does not know the
 * credential → auth_not_set; the Hub refuses the service → not_allowed; anything else → failed.
 */
async function ask(hub: HubTarget, teamSlug: string, path: string, body: unknown): Promise<HubState> {
  let response: Response;
  try {
    // Through the outbound guard (security finding 5): never an address inside the server's network, no redirects.
    response = await userUrlFetch(new URL(path, hub.server_url), {
      method: 'POST',
      headers: { authorization: `Bearer ${await sign(hub, teamSlug)}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('aux_server_not_connected', `The Hub at ${hub.server_url} did not answer.`).shows(
      'errors.hub_did_not_answer',
      { url: hub.server_url ?? '' },
    );
  }
  const json = (await response.json().catch(() => null)) as ErrorReply | null;
  if (!response.ok) {
    if (response.status === 401 || json?.code === 'hub_not_registered') {
      throw new AppError(
        'auth_not_set',
        'The Hub does not accept this credential. Register it on the Hub, then try again.',
      ).shows('errors.hub_refuses_credential');
    }
    // The Hub's own message, in the admin's language, when it sent one.
    const [key, values] = json?.message_key ? [json.message_key, json.message_values] : ['errors.hub_failed', undefined];
    if (json?.code === 'not_allowed')
      throw new AppError('not_allowed', json.description ?? 'The Hub refused.').shows(key, values);
    throw new AppError('failed', `The Hub could not do this${json?.description ? `: ${json.description}` : '.'}`).shows(
      key,
      values,
    );
  }
  const parsed = hubVerifyEndpoint.output.safeParse(json);
  if (!parsed.success)
    throw new AppError('failed', 'The Hub sent a reply this server does not understand.').shows('errors.hub_reply_unreadable');
  return parsed.data;
}

export const hubClient = {
  verify: (hub: HubTarget, teamSlug: string) => ask(hub, teamSlug, hubVerifyEndpoint.path, { team_slug: teamSlug }),
  setServices: (hub: HubTarget, teamSlug: string, enabled: string[]) =>
    ask(hub, teamSlug, hubSetServicesEndpoint.path, { team_slug: teamSlug, enabled }),
};
