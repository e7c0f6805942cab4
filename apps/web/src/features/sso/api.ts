import type { EndpointInput } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the SSO connector screen; the team slug scopes the cache. */
const ssoKeys = {
  all: (team: string) => ['sso', team] as const,
  configs: (team: string) => [...ssoKeys.all(team), 'configs'] as const,
  policy: (team: string) => [...ssoKeys.all(team), 'policy'] as const,
  test: (team: string, id: string) => [...ssoKeys.all(team), 'test', id] as const,
};

export const useSsoConfigsQuery = () =>
  useQuery({ queryKey: ssoKeys.configs(useTeamSlug()), queryFn: () => call('ssoConfigs', {}) });
export const useSsoPolicyQuery = () =>
  useQuery({ queryKey: ssoKeys.policy(useTeamSlug()), queryFn: () => call('ssoPolicy', {}) });
export const useSsoTestQuery = (id: string | null) =>
  useQuery({
    queryKey: ssoKeys.test(useTeamSlug(), id ?? ''),
    queryFn: () => call('ssoStatus', { saml_request_id: id ?? '' }),
    enabled: Boolean(id),
  });

type SsoAction =
  | { kind: 'create'; input: EndpointInput<ApiCreate> }
  | { kind: 'update'; input: EndpointInput<ApiUpdate> }
  | { kind: 'activate' | 'deactivate' | 'delete'; config_uuid: string }
  | { kind: 'enforce'; enforce_sso: boolean }
  | { kind: 'exclude'; add: string[]; remove: string[] };
type ApiCreate = import('@latchkey/contracts/client').ApiMap['ssoConfigCreate'];
type ApiUpdate = import('@latchkey/contracts/client').ApiMap['ssoConfigUpdate'];

/** Every connector and policy change; afterwards the connectors and the policy are stale. */
export function useSsoMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: async (action: SsoAction): Promise<unknown> => {
      switch (action.kind) {
        case 'create':
          return call('ssoConfigCreate', action.input);
        case 'update':
          return call('ssoConfigUpdate', action.input);
        case 'activate':
          return call('ssoConfigActivate', { config_uuid: action.config_uuid });
        case 'deactivate':
          return call('ssoConfigDeactivate', { config_uuid: action.config_uuid });
        case 'delete':
          return call('ssoConfigDelete', { config_uuid: action.config_uuid });
        case 'enforce':
          return call('ssoPolicyUpdate', { enforce_sso: action.enforce_sso });
        case 'exclude':
          return call('ssoExcludedAdmins', { add_excluded_admins: action.add, remove_excluded_admins: action.remove });
      }
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ssoKeys.all(team) }),
  });
}

/** Test configuration: a SAML request whose result comes back over the test channel. */
export const startSsoTest = (config_uuid: string) => call('ssoTestStart', { config_uuid });

/** After a test: the connector's state changed on the server. */
export function useSsoRefresh() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return () => client.invalidateQueries({ queryKey: ssoKeys.configs(team) });
}
