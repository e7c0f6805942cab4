import { type EndpointOutput, hubAdminRoleEndpoint, hubSessionCheckEndpoint } from '@latchkey/contracts';
import type { z } from 'zod';
import type { HubKeys } from '../../platform/keys.ts';
import { signedServerCall } from '../../platform/server-call.ts';
import type { RegistrationRow } from '../registrations/index.ts';

type SessionVerdict = EndpointOutput<typeof hubSessionCheckEndpoint> | 'unreachable';
type RoleVerdict = EndpointOutput<typeof hubAdminRoleEndpoint> | 'unreachable';
type ServerRegistration = Pick<RegistrationRow, 'credential_id' | 'server_url'>;

/** Anything but a clear answer is 'unreachable': the caller fails closed. */
async function callServer<O extends z.ZodTypeAny>(
  keys: HubKeys,
  registration: ServerRegistration,
  endpoint: { path: string; output: O },
  teamSlug: string,
  body: Record<string, unknown>,
): Promise<z.infer<O> | 'unreachable'> {
  const answer = await signedServerCall(keys, registration, endpoint, teamSlug, body);
  return answer.ok ? answer.data : 'unreachable';
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
