import { ErrorReply } from '@latchkey/contracts';
import { signCall } from '@latchkey/runtime';
import type { z } from 'zod';
import type { HubKeys } from './keys.ts';

/** A registration as far as a call to its licence server needs it. */
export interface ServerRegistration {
  credential_id: string;
  server_url: string | null;
}

/** The server's answer, parsed; or why there is none (status 0: no answer at all). */
export type ServerAnswer<T> = { ok: true; data: T } | { ok: false; status: number; error: ErrorReply | null };

/**
 * One call to the licence server, signed with this Hub's key for the endpoint's path, the team and
 * the exact body; no redirect followed.
 */
export async function signedServerCall<O extends z.ZodTypeAny>(
  keys: HubKeys,
  registration: ServerRegistration,
  endpoint: { path: string; output: O },
  teamSlug: string,
  body: Record<string, unknown>,
  timeoutMs = 5_000,
): Promise<ServerAnswer<z.infer<O>>> {
  if (!registration.server_url) return { ok: false, status: 0, error: null };
  const { token, json } = signCall(keys.signing, registration.credential_id, endpoint.path, teamSlug, body);
  try {
    const response = await fetch(new URL(endpoint.path, registration.server_url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: json,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const payload = await response.json().catch(() => null);
    if (!response.ok) {
      const error = ErrorReply.safeParse(payload);
      return { ok: false, status: response.status, error: error.success ? error.data : null };
    }
    const parsed = endpoint.output.safeParse(payload);
    return parsed.success ? { ok: true, data: parsed.data } : { ok: false, status: response.status, error: null };
  } catch {
    return { ok: false, status: 0, error: null };
  }
}
