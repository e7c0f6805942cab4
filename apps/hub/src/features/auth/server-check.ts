import { type EndpointOutput, hubSessionCheckEndpoint } from '@latchkey/contracts';
import { signCall } from '@latchkey/runtime';
import type { HubKeys } from '../../platform/keys.ts';
import type { RegistrationRow } from '../registrations/index.ts';

export type SessionVerdict = EndpointOutput<typeof hubSessionCheckEndpoint> | 'unreachable';

const TIMEOUT_MS = 5_000;

/**
 * Asks the licence server, in a call signed with this Hub's key, whether the console session a
 * Hub session came from is still live and what its admin may do now. Anything but a clear
 * answer is 'unreachable': the caller fails closed.
 */
export function createServerCheck(keys: HubKeys) {
  return async (
    registration: Pick<RegistrationRow, 'credential_id' | 'server_url'>,
    session: { team_slug: string; console_sid: string; user_id: string },
  ): Promise<SessionVerdict> => {
    if (!registration.server_url) return 'unreachable';
    const path = hubSessionCheckEndpoint.path;
    const body = { team_slug: session.team_slug, sid: session.console_sid, user_id: session.user_id };
    const { token, json } = signCall(keys.signing, registration.credential_id, path, session.team_slug, body);
    try {
      const response = await fetch(new URL(path, registration.server_url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: json,
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!response.ok) return 'unreachable';
      const parsed = hubSessionCheckEndpoint.output.safeParse(await response.json());
      return parsed.success ? parsed.data : 'unreachable';
    } catch {
      return 'unreachable';
    }
  };
}
export type ServerCheck = ReturnType<typeof createServerCheck>;
