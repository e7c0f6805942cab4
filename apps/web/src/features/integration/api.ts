import { type ApiMap, type EndpointInput, type EndpointOutput, type ErrorReply, hubUrlProblem } from '@latchkey/contracts/client';
import { useQuery } from '@tanstack/react-query';
import { call, routeTable } from '../../lib/api.ts';
import { ApiError, replyError } from '../../lib/api-error.ts';
import { newRequestId, REQUEST_ID_HEADER } from '../../lib/request-id.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

export const integrationKeys = {
  credentials: (team: string) => ['integration', team, 'credentials'] as const,
  hosting: (team: string) => ['integration', team, 'hosting'] as const,
};

export const useCredentialsQuery = () =>
  useQuery({
    queryKey: integrationKeys.credentials(useTeamSlug()),
    queryFn: async () => (await call('credentials', {})).credentials,
  });

export const useHostingQuery = () =>
  useQuery({ queryKey: integrationKeys.hosting(useTeamSlug()), queryFn: () => call('hostingPreferences', {}) });

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Spec §5 for a Hub address typed here: https, or loopback http while the console itself is local. */
export const hubAddressProblem = (value: string): string | null =>
  hubUrlProblem(value, { allowLoopbackHttp: LOOPBACK.test(window.location.hostname) });

/** The address without a trailing path or slash: the Hub's calls hang off its origin. */
export const hubOrigin = (value: string): string => new URL(value.trim()).origin;

type HubDirect = 'hubHealth' | 'hubConnector';

/**
 * The browser calls the Hub's unprotected endpoints itself (spec §7): the console learns
 * whether the customer's own server answers from where the admin sits, not from the licence server.
 */
export async function callHubDirect<K extends HubDirect>(
  serverUrl: string,
  name: K,
  input: EndpointInput<ApiMap[K]>,
): Promise<EndpointOutput<ApiMap[K]>> {
  const route = (await routeTable())[name];
  let response: Response;
  try {
    response = await fetch(`${hubOrigin(serverUrl)}${route.path}`, {
      method: route.method,
      headers: {
        [REQUEST_ID_HEADER]: newRequestId(),
        ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      body: route.method === 'POST' ? JSON.stringify(input) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new ApiError('network', 'The Hub did not answer.', 0, 'FETCH_ERROR', 'hub');
  }
  const json = (await response.json().catch(() => null)) as ErrorReply | null;
  if (!json) throw new ApiError('parsing', 'The reply could not be read.', response.status, 'PARSING_ERROR', 'hub');
  if (!response.ok) throw replyError(json, response.status, 'hub');
  return json as EndpointOutput<ApiMap[K]>;
}
