import { type EndpointOutput, hubAdminRoleEndpoint, hubSessionCheckEndpoint } from '@latchkey/contracts';
import { signCall } from '@latchkey/runtime';
import type { z } from 'zod';
import type { HubKeys } from '../../platform/keys.ts';
import type { RegistrationRow } from '../registrations/index.ts';

type SessionVerdict = EndpointOutput<typeof hubSessionCheckEndpoint> | 'unreachable';
type RoleVerdict = EndpointOutput<typeof hubAdminRoleEndpoint> | 'unreachable';
type ServerRegistration = Pick<RegistrationRow, 'credential_id' | 'server_url'>;

const TIMEOUT_MS = 5_000;

/**
 * One call to the licence server, signed with this Hub's key for the endpoint's path, the team
 * and the exact body. Anything but a clear answer is 'unreachable': the caller fails closed.
 */
async function callServer<O extends z.ZodTypeAny>(
  keys: HubKeys,
  registration: ServerRegistration,
  endpoint: { path: string; output: O },
  teamSlug: string,
  body: Record<string, unknown>,
): Promise<z.infer<O> | 'unreachable'> {
  if (!registration.server_url) return 'unreachable';
  const { token, json } = signCall(keys.signing, registration.credential_id, endpoint.path, teamSlug, body);
  try {
    const response = await fetch(new URL(endpoint.path, registration.server_url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: json,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) return 'unreachable';
    const parsed = endpoint.output.safeParse(await response.json());
    return parsed.success ? parsed.data : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

/**
 * Asks the licence server whether the console session a Hub session came from is still live and
 * what its admin may do now.
 */
export function createServerCheck(keys: HubKeys) {
  return (
    registration: ServerRegistration,
    session: { team_slug: string; console_sid: string; user_id: string },
  ): Promise<SessionVerdict> =>
    callServer(keys, registration, hubSessionCheckEndpoint, session.team_slug, {
      team_slug: session.team_slug,
      sid: session.console_sid,
      user_id: session.user_id,
    });
}
export type ServerCheck = ReturnType<typeof createServerCheck>;

/** Asks the licence server which admin scopes an email holds in the team now (the source of truth for roles). */
export function createRoleCheck(keys: HubKeys) {
  return (registration: ServerRegistration, teamSlug: string, email: string): Promise<RoleVerdict> =>
    callServer(keys, registration, hubAdminRoleEndpoint, teamSlug, { team_slug: teamSlug, email });
}
export type RoleCheck = ReturnType<typeof createRoleCheck>;
