// What an outbound call to a user-given address may reach, and how it fails (outbound.ts).

export interface OutboundPolicy {
  /** Outside production: loopback and private networks are reachable (the demo and tests run Hubs on 127.0.0.1). */
  allowPrivate: boolean;
  /** Hosts (`hub.corp.example`, `*.corp.example`) and addresses or CIDRs (`10.1.2.3`, `10.0.0.0/8`, `fd00::/8`) always reachable. */
  allow: readonly string[];
  /** The whole exchange, connection to last byte. */
  timeoutMs: number;
  /** The most the remote may send back. */
  maxBytes: number;
  /** Resolves a name to its addresses (tests inject one; DNS otherwise). */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export type OutboundFailure = 'invalid_url' | 'refused' | 'unresolvable' | 'redirect' | 'timeout' | 'too_large' | 'failed';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 5_000;
export const DEFAULT_OUTBOUND_MAX_BYTES = 1024 * 1024;

/** The policy for a program: production refuses every non-public address that the allow-list does not name. */
export function outboundPolicy(options: {
  production: boolean;
  allow?: readonly string[];
  timeoutMs?: number;
  maxBytes?: number;
}): OutboundPolicy {
  return {
    allowPrivate: !options.production,
    allow: options.allow ?? [],
    timeoutMs: options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES,
  };
}

/** `OUTBOUND_ALLOW`: entries separated by commas or spaces. */
export function parseAllowList(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}
