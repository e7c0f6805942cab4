import {
  type Ed25519Jwk,
  type ErrorReply,
  type HubState,
  hubEventsFeedEndpoint,
  hubRegisterEndpoint,
  hubRevokeSessionsEndpoint,
  hubSetServicesEndpoint,
  hubVerifyEndpoint,
  type Scope,
} from '@latchkey/contracts';
import { AppError, currentRequestId, REQUEST_ID_HEADER, signCall } from '@latchkey/runtime';
import type { z } from 'zod';
import { userUrlFetch } from '../../platform/outbound.ts';
import type { ServerKey } from './server-key.ts';

const TIMEOUT_MS = 5_000;

interface HubTarget {
  server_url: string;
  credential_id: string;
}

/**
 * The server's calls to a Hub, over real HTTP, each signed with the server's key for its path,
 * team and exact body (packages/runtime/src/signed.ts). Whatever goes wrong becomes a
 * toggle-service code: no answer → aux_server_not_connected; the Hub does not know the
 * credential → auth_not_set; the Hub refuses → not_allowed (or its own code); anything else → failed.
 */
/** A key of our own catalogue and short plain values, or the generic message: nothing else the Hub says is passed on. */
function hubMessage(answer: ErrorReply | null): [string, Record<string, string> | undefined] {
  const key = answer?.message_key;
  if (!key || !/^errors\.[a-z0-9_]{1,80}$/.test(key)) return ['errors.hub_failed', undefined];
  const values = Object.fromEntries(
    Object.entries(answer?.message_values ?? {})
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .map(([k, v]) => [k, String(v).slice(0, 100)]),
  );
  return [key, values];
}

export function createHubClient(key: ServerKey) {
  async function ask<T>(hub: HubTarget, teamSlug: string, path: string, body: object, reply: z.ZodType<T>): Promise<T> {
    const { token, json } = signCall(key.signing, hub.credential_id, path, teamSlug, body);
    let response: Response;
    // The console request's id goes on to the Hub: one id in the logs of all three.
    const requestId = currentRequestId();
    try {
      // Through the outbound guard (security finding 5): never an address inside the server's network, no redirects.
      response = await userUrlFetch(new URL(path, hub.server_url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
        },
        body: json,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('aux_server_not_connected', `The Hub at ${hub.server_url} did not answer.`).shows(
        'errors.hub_did_not_answer',
        { url: hub.server_url ?? '' },
      );
    }
    const answer = (await response.json().catch(() => null)) as ErrorReply | null;
    if (!response.ok) {
      // Not the console session's fault: a 400, so the console never takes it for a sign-out.
      if (answer?.code === 'setup_key_invalid')
        throw new AppError('setup_key_invalid', answer.description ?? 'The setup key is not valid.', 400).shows(
          'errors.setup_key_invalid',
        );
      if (response.status === 401 || answer?.code === 'hub_not_registered') {
        throw new AppError('auth_not_set', 'The Hub does not accept this credential. Set it up on the Hub again.').shows(
          'errors.hub_refuses_credential',
        );
      }
      // The Hub's message key, in the admin's language; never its text (a remote body is not reflected).
      const [messageKey, values] = hubMessage(answer);
      if (answer?.code === 'not_allowed') throw new AppError('not_allowed', 'The Hub refused.').shows(messageKey, values);
      throw new AppError('failed', 'The Hub could not do this.').shows(messageKey, values);
    }
    const parsed = reply.safeParse(answer);
    if (!parsed.success)
      throw new AppError('failed', 'The Hub sent a reply this server does not understand.').shows('errors.hub_reply_unreadable');
    return parsed.data;
  }

  return {
    verify: (hub: HubTarget, teamSlug: string): Promise<HubState> =>
      ask(hub, teamSlug, hubVerifyEndpoint.path, { team_slug: teamSlug }, hubVerifyEndpoint.output),
    setServices: (hub: HubTarget, teamSlug: string, enabled: string[]): Promise<HubState> =>
      ask(hub, teamSlug, hubSetServicesEndpoint.path, { team_slug: teamSlug, enabled }, hubSetServicesEndpoint.output),
    /** Registers the credential; the Hub answers with its own public key. */
    register: (
      hub: HubTarget,
      teamSlug: string,
      o: { serverUrl: string; setupKey?: string | undefined },
    ): Promise<{ hub_key: Ed25519Jwk; version: string }> =>
      ask(
        hub,
        teamSlug,
        hubRegisterEndpoint.path,
        {
          team_slug: teamSlug,
          credential_id: hub.credential_id,
          server_key: key.publicJwk,
          server_url: o.serverUrl,
          ...(o.setupKey ? { setup_key: o.setupKey } : {}),
        },
        hubRegisterEndpoint.output,
      ),
    /** The team's events recorded here, for its event log; the Hub stores each id once. */
    sendEvents: (hub: HubTarget, teamSlug: string, events: z.input<typeof hubEventsFeedEndpoint.input>['events']) =>
      ask(hub, teamSlug, hubEventsFeedEndpoint.path, { team_slug: teamSlug, events }, hubEventsFeedEndpoint.output),
    revokeSessions: (
      hub: HubTarget,
      teamSlug: string,
      match: { session_ids?: string[]; user_id?: string; admin?: { email: string; scopes: Scope[] } },
    ) => ask(hub, teamSlug, hubRevokeSessionsEndpoint.path, { team_slug: teamSlug, ...match }, hubRevokeSessionsEndpoint.output),
  };
}
export type HubClient = ReturnType<typeof createHubClient>;
