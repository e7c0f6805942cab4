import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The payload as it is stored and run: plain JSON (what a request body can carry), so the input
 * approved and the input run are the same value.
 */
export function plainPayload(input: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(input ?? {})) as Record<string, unknown>;
}

/**
 * SHA-256 of the call and its input in canonical JSON (RFC 8785: keys sorted, one spelling per
 * number): the same change asked twice hashes alike, any other change differently.
 */
export function payloadHash(call: string, payload: Record<string, unknown>): string {
  return createHash('sha256')
    .update(canonicalize({ call, payload }) ?? '')
    .digest('hex');
}
