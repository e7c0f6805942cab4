import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries one request id from the console through the server to the Hub. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Short and plain: an id from outside goes into every log line and a reply header, so nothing else is taken. */
const SANE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The caller's id when it is sane, else a new one (a caller cannot inject log text or long values). */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && SANE_ID.test(value) ? value : randomUUID();
}

/** Where a request came from: the client's address (after trusted proxies) and its User-Agent. */
export interface RequestOrigin {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

const store = new AsyncLocalStorage<{ requestId: string } & RequestOrigin>();

/** Runs `next` (the rest of a request's handling) with its id (and origin) readable by `currentRequestId` and `currentRequestOrigin`. */
export const withRequestId = <T>(requestId: string, next: () => T, origin: RequestOrigin = {}): T =>
  store.run({ requestId, ...origin }, next);

/**
 * The id of the request being handled, for calls it makes to other programs (the server's calls
 * to a Hub), so one id follows a console action everywhere; undefined outside a request (jobs).
 */
export const currentRequestId = (): string | undefined => store.getStore()?.requestId;

/** The address and User-Agent of the request being handled (for the event log); empty outside a request. */
export const currentRequestOrigin = (): RequestOrigin => {
  const s = store.getStore();
  return s ? { ip: s.ip, userAgent: s.userAgent } : {};
};
