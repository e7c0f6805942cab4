import {
  type ApiMap,
  type AuxServiceFlag,
  type EndpointInput,
  type EndpointOutput,
  type ErrorReply,
  HOSTED_HUB_KEY,
  type HostingPreference,
  type HubServer,
  hubUrlProblem,
} from '@latchkey/contracts/client';
import { useQuery } from '@tanstack/react-query';
import { call, routeTable } from '../../lib/api.ts';
import { ApiError, replyError } from '../../lib/api-error.ts';
import { deviceInfo } from '../../lib/auth.ts';
import { newRequestId, REQUEST_ID_HEADER } from '../../lib/request-id.ts';
import { getSession, setSession } from '../../lib/session.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the integration screen; the team slug scopes the cache. */
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

export const saveHostingPreference = (hosting: HostingPreference) => call('hostingPreferences', { hosting });

/** Switches one auxiliary service of the team's Hub on or off; the server asks the Hub before it agrees. */
export const switchAuxService = (credentialId: string, flag: AuxServiceFlag, on: boolean) =>
  on
    ? call('enableAuxServices', { credential_id: credentialId, services: [flag] })
    : call('disableAuxServices', { services: [flag] });

/** The credentials: each is one connection to a Hub, with nothing secret in it. */
export const credentials = {
  add: (name: string) => call('credentialsAdd', { name }),
  rename: (credentialId: string, name: string) => call('credentialsUpdate', { credential_id: credentialId, name }),
  remove: (credentialId: string) => call('credentialsDelete', { credential_id: credentialId }),
  /** The server registers the credential at the Hub itself, with the setup key the Hub's operator minted, if given. */
  setUp: (credentialId: string, serverUrl: string, setupKey: string) =>
    call('credentialsSetup', {
      device: deviceInfo(),
      [HOSTED_HUB_KEY]: {
        credential_id: credentialId,
        server_url: hubOrigin(serverUrl),
        ...(setupKey.trim() ? { setup_key: setupKey.trim() } : {}),
      },
    }),
};

/** Connects a Hub: a new credential named after its address, set up there; a credential no Hub took is removed again. */
export async function connectHub(url: string, setupKey: string) {
  const credential = await credentials.add(new URL(url.trim()).host.slice(0, 60));
  try {
    return await credentials.setUp(credential.credential_id, url, setupKey);
  } catch (error) {
    await credentials.remove(credential.credential_id).catch(() => undefined);
    throw error;
  }
}

/**
 * Deletes the connector: the Hub forgets the team first (with the Hub session), then the server
 * drops the credential. A Hub that is gone cannot be asked, so the server side is still removed then.
 */
export async function deleteConnector(hub: HubServer, team: string) {
  const session = getSession();
  if (session?.hub && hub.reachable) {
    await call('hubDeleteConnector', { team_slug: team, device: deviceInfo() });
    setSession({ ...session, hub: null });
  }
  await credentials.remove(hub.credential_id);
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Spec §5 for a Hub address typed here: https, or loopback http while the console itself is local. */
export const hubAddressProblem = (value: string): string | null =>
  hubUrlProblem(value, { allowLoopbackHttp: LOOPBACK.test(window.location.hostname) });

/** The address without a trailing path or slash: the Hub's calls hang off its origin. */
const hubOrigin = (value: string): string => new URL(value.trim()).origin;

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
