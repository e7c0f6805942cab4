import type { ApiMap, EndpointInput, EndpointOutput, ErrorReply, HubTokens, RouteInfo } from '@latchkey/contracts/client';
import { ApiError, ApprovalRequired, replyError } from './api-error.ts';
import { noteApprovalRequired } from './approval-notices.ts';
import { FAILED, rememberPrefetch, takeArrivedPrefetch, takePrefetch } from './prefetch.ts';
import { withRenewalLock } from './renewal-lock.ts';
import { newRequestId, REQUEST_ID_HEADER } from './request-id.ts';
import { getSession, needsRefresh, type Session, setSession, storedSession } from './session.ts';

const TIMEOUT_MS = 30_000;

/** The table of every call's path, loaded with the first call so the first page stays small. */
export const routeTable = () => import('@latchkey/contracts/routes').then((m) => m.ROUTES);

type SessionLostHandler = (status: number) => void;
let onSessionLost: SessionLostHandler = () => {};
/** Who handles a session the server no longer accepts (the auth module logs out). */
export const handleSessionLost = (handler: SessionLostHandler): void => {
  onSessionLost = handler;
};

async function send(
  base: string,
  endpoint: RouteInfo,
  input: unknown,
  bearer: string | undefined,
  target: 'server' | 'hub',
  basic?: string,
) {
  const headers: Record<string, string> = { [REQUEST_ID_HEADER]: newRequestId() };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  else if (basic) headers.authorization = `Basic ${basic}`;
  let url = base + endpoint.path;
  let body: string | undefined;
  // Fields the declaration reads from the query string (spec §7 paging) go there, not in the body.
  if (endpoint.queryFields?.length && input && typeof input === 'object') {
    const fields = input as Record<string, unknown>;
    const query = new URLSearchParams(
      endpoint.queryFields.filter((k) => fields[k] !== undefined).map((k) => [k, String(fields[k])]),
    ).toString();
    if (query) url += `?${query}`;
    input = Object.fromEntries(Object.entries(fields).filter(([k]) => !endpoint.queryFields?.includes(k)));
  }
  if (endpoint.method === 'GET') {
    const query = new URLSearchParams(input as Record<string, string>).toString();
    if (query) url += `?${query}`;
  } else if (endpoint.encoding === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(input as Record<string, string>).toString();
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input ?? {});
  }
  let response: Response;
  try {
    response = await fetch(url, { method: endpoint.method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiError('network', 'The request did not reach the server.', 0, timedOut ? 'TIMEOUT_ERROR' : 'FETCH_ERROR', target);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ApiError('parsing', 'The reply could not be read.', response.status, 'PARSING_ERROR', target);
  }
  if (!response.ok) {
    throw replyError(json as ErrorReply, response.status, target);
  }
  if (response.status === 202) throwIfHeld(json);
  return json;
}

/** The console's own tokens (and the Hub's with them when they would expire first), or the Hub's alone. */
export type RenewalPart = 'console' | 'hub';

/**
 * After a failed renewal of the Hub's tokens, when to try again: soon the first time, well inside
 * the Hub's grace window (its answer may have been lost after the Hub rotated the token, and the
 * same token then still gets the same successor), then at a slower pace while the Hub is away.
 */
const HUB_RETRY_SOON_MS = 3_000;
const HUB_RETRY_LATER_MS = 30_000;

const renewing: Partial<Record<RenewalPart, Promise<Session>>> = {};

/**
 * Rotates the session's tokens: once at a time however many calls of this tab ask, and one tab at
 * a time (lib/renewal-lock.ts). The tabs share one session in storage, so a tab that finds there
 * other tokens than the ones it meant to renew takes them as they are: another tab renewed
 * meanwhile, and the refresh token this tab holds is spent.
 */
export function refreshSession(part: RenewalPart = 'console'): Promise<Session> {
  renewing[part] ??= renewShared(part).finally(() => {
    delete renewing[part];
  });
  return renewing[part];
}

async function renewShared(part: RenewalPart): Promise<Session> {
  const held = getSession();
  if (!held) throw new ApiError('token_expired', 'Not signed in.', 401);
  return withRenewalLock(async () => {
    const session = storedSession();
    if (!session) throw new ApiError('token_expired', 'Not signed in.', 401);
    const renewedElsewhere =
      session.token.refresh_token !== held.token.refresh_token ||
      (part === 'hub' && session.hub?.tokens.refresh !== held.hub?.tokens.refresh);
    if (renewedElsewhere) {
      setSession(session);
      return session;
    }
    const next =
      part === 'console' ? await renewConsole(session) : { ...session, hub: session.hub && (await renewHub(session.hub)) };
    // Only store if nobody signed out meanwhile.
    if (storedSession()?.token.refresh_token === session.token.refresh_token) setSession(next);
    return next;
  });
}

async function renewConsole(session: Session): Promise<Session> {
  const { refreshToken } = await routeTable();
  const token = (await send(
    '',
    refreshToken,
    { grant_type: 'refresh_token', refresh_token: session.token.refresh_token },
    undefined,
    'server',
  ).catch((error: unknown) => {
    // A refused refresh (invalid_grant) means the session is over, like a 401.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      throw new ApiError('token_expired', error.description, 401);
    }
    throw error;
  })) as EndpointOutput<ApiMap['refreshToken']>;
  const hub = session.hub;
  // The Hub's tokens are renewed with the console's unless they outlive the new console token
  // (renewing only those already due let them expire before the next renewal).
  const hubToo = hub && (hub.retryAt !== undefined || hub.tokens.expires_at <= token.expires_at);
  return { ...session, token, hub: hubToo ? await renewHub(hub) : hub };
}

/** The Hub's new tokens; a failure keeps the old ones (the console still works) and plans another try. */
async function renewHub(hub: NonNullable<Session['hub']>): Promise<NonNullable<Session['hub']>> {
  const { hubRefresh } = await routeTable();
  try {
    const tokens = (await send(hub.server_url, hubRefresh, { refresh: hub.tokens.refresh }, undefined, 'hub')) as HubTokens;
    return { server_url: hub.server_url, tokens };
  } catch {
    return { ...hub, retryAt: Date.now() + (hub.retryAt === undefined ? HUB_RETRY_SOON_MS : HUB_RETRY_LATER_MS) };
  }
}

/** A change held for approval is not a success: it says so once, for every screen (lib/approval-notices.ts). */
function throwIfHeld(json: unknown): void {
  const reply = json as { code?: unknown; request_id?: unknown; message_values?: { requested_at?: unknown } };
  if (reply.code !== 'approval_required') return;
  const at = reply.message_values?.requested_at;
  const held = new ApprovalRequired(String(reply.request_id ?? ''), typeof at === 'string' ? at : new Date().toISOString());
  noteApprovalRequired(held);
  throw held;
}

type Out<K extends keyof ApiMap> = EndpointOutput<ApiMap[K]>;

/** A public call carrying a one-time token as 'Authorization: Basic {token}' (spec §7 family login). */
export async function callWithBasic<K extends keyof ApiMap>(name: K, input: EndpointInput<ApiMap[K]>, token: string) {
  return (await send('', (await routeTable())[name], input, undefined, 'server', token)) as Out<K>;
}

/** One try of a session call: a fresh access token (refreshed first when due, or when forced). */
async function sessionSend(endpoint: RouteInfo, input: unknown, forceRefresh: boolean) {
  const hub = endpoint.auth === 'hubAuth';
  let session = getSession();
  if (!session) throw new ApiError('token_expired', 'Not signed in.', 401);
  // A refused token is renewed for the program that refused it.
  if (forceRefresh) session = await refreshSession(hub ? 'hub' : 'console');
  else if (needsRefresh(session.token.expires_at)) session = await refreshSession('console');
  else if (hub && (session.hub?.retryAt ?? Number.POSITIVE_INFINITY) <= Date.now()) session = await refreshSession('hub');
  if (hub && !session.hub) throw new ApiError('hub_not_connected', 'No Hub is connected.', 0, 'FETCH_ERROR', 'hub');
  const base = hub && session.hub ? session.hub.server_url : '';
  const bearer = hub ? session.hub?.tokens.access : session.token.access;
  return send(base, endpoint, input, bearer, hub ? 'hub' : 'server');
}

/** Who owns a prefetched answer: the signed-in admin on one team (not the token, which a refresh rotates). */
const prefetchOwner = (): string => {
  const session = getSession();
  return session ? `${session.email} ${session.team_slug}` : '';
};

/**
 * Starts a session call before the code that needs it has loaded (lib/prefetch.ts). A refusal is
 * not acted on here (no sign-out on a 403): the later `call` then runs as usual and handles it.
 * Resolves to the answer, or null when signed out or the call failed.
 */
export async function prefetchCall<K extends keyof ApiMap>(name: K, input: EndpointInput<ApiMap[K]>): Promise<Out<K> | null> {
  const owner = prefetchOwner();
  if (!owner) return null;
  const answer = await rememberPrefetch(name, input, owner, async () => sessionSend((await routeTable())[name], input, false));
  return answer === FAILED ? null : (answer as Out<K>);
}

/**
 * A query answered by one call: its `queryFn` (`pick` shapes the answer) and, for React Query's
 * `initialData`, the same call's prefetched answer when it has already arrived, shaped alike: the
 * first render shows the answer instead of a skeleton and a second render a turn later. Nothing
 * arrived yet: the query calls as usual (and `call` takes the prefetch when it comes).
 */
export function callQuery<K extends keyof ApiMap, T = Out<K>>(
  name: K,
  input: EndpointInput<ApiMap[K]>,
  pick: (answer: Out<K>) => T = (answer) => answer as unknown as T,
): { queryFn: () => Promise<T>; initialData: () => T | undefined; initialDataUpdatedAt: () => number | undefined } {
  let at: number | undefined;
  return {
    queryFn: async () => pick(await call(name, input)),
    // React Query asks for both only when it makes the query, the first time its key is used.
    initialData: () => {
      const arrived = takeArrivedPrefetch(name, input, prefetchOwner());
      if (!arrived) return undefined;
      at = arrived.at;
      return pick(arrived.value as Out<K>);
    },
    initialDataUpdatedAt: () => at,
  };
}

/** Calls a contract's endpoint by name with its typed input; session calls carry a fresh access token. */
export async function call<K extends keyof ApiMap>(name: K, input: EndpointInput<ApiMap[K]>): Promise<Out<K>> {
  const early = takePrefetch(name, input, prefetchOwner());
  if (early) {
    const answer = await early;
    if (answer !== FAILED) return answer as Out<K>;
  }
  const endpoint: RouteInfo = (await routeTable())[name];
  if (endpoint.auth === 'public') return (await send('', endpoint, input, undefined, 'server')) as Out<K>;
  try {
    return (await sessionSend(endpoint, input, false)) as Out<K>;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) {
      // Refresh once and retry; a refused refresh ends the session.
      try {
        return (await sessionSend(endpoint, input, true)) as Out<K>;
      } catch (retryError) {
        if (retryError instanceof ApiError && retryError.status === 401) onSessionLost(401);
        throw retryError;
      }
    }
    if (error.status === 403) onSessionLost(403);
    throw error;
  }
}
