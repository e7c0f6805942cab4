import type { TLSSocket } from 'node:tls';
import {
  AppError,
  OutboundError,
  type OutboundInit,
  type OutboundPolicy,
  outboundConnect,
  outboundFetch,
  outboundPolicy,
} from '@latchkey/runtime';

/**
 * The server's policy for URLs users give it (security finding 5), set once by buildServer from
 * its configuration. Until then (scripts, tests that call services directly) the development
 * policy applies, which still refuses link-local and metadata addresses.
 */
let policy: OutboundPolicy = outboundPolicy({ production: false });

export function useOutboundPolicy(next: OutboundPolicy): void {
  policy = next;
}

/**
 * `fetch` for an address a user gave (the team's Hub today): through the runtime's guard. An
 * address inside the server's network is the caller's 400; every other failure is rethrown as the
 * guard's OutboundError, for the caller to say what it means (e.g. "the Hub did not answer").
 */
export async function userUrlFetch(url: string | URL, init: OutboundInit): Promise<Response> {
  try {
    return await outboundFetch(url, init, policy);
  } catch (error) {
    if (error instanceof OutboundError && error.kind === 'refused') {
      throw new AppError('invalid_input', error.message, 400).shows('errors.outbound_refused');
    }
    throw error;
  }
}

/** A TLS connection to a user-given host (a Hub) through the same guard, its certificate not judged: the doctor reads it. */
export async function userTlsConnect(host: string, port: number): Promise<TLSSocket> {
  return (await outboundConnect({ host, port, tls: true, insecureTls: true }, policy)) as TLSSocket;
}
