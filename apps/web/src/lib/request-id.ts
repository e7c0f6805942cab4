/**
 * An id for one call, sent as X-Request-Id: the server logs it on every line of that request and
 * passes it to the Hub, so an operator can follow one console action through both logs.
 * getRandomValues, not randomUUID: the latter exists only on https or localhost.
 */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export const REQUEST_ID_HEADER = 'x-request-id';
