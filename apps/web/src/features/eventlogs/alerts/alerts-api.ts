import type { AlertRule, ApiMap, EndpointInput, EndpointOutput } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { PAGE_SIZE } from '../../../lib/paging.ts';
import { useTeamSlug } from '../../../lib/team-slug.ts';
import { eventKeys } from '../api.ts';

export type { AlertRule };
export type AlertFiringRow = EndpointOutput<ApiMap['alertRuleFirings']>['firings'][number];

const alertsKey = (team: string) => [...eventKeys.all(team), 'alerts'] as const;

/** The team's rules and the built-in templates not switched on yet. */
export function useAlertRulesQuery() {
  const team = useTeamSlug();
  return useQuery({ queryKey: alertsKey(team), queryFn: () => call('alertRulesList', { team_slug: team }) });
}

/**
 * One page of a rule's firings, newest first, with their total; read again every 5 s while open
 * (deliveries move on their own), the page shown kept while the next loads.
 */
export function useAlertFiringsQuery(id: string, page: number) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...alertsKey(team), 'firings', id, page],
    queryFn: () => call('alertRuleFirings', { team_slug: team, id, page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

type AlertCall =
  | 'alertRuleCreate'
  | 'alertRuleUpdate'
  | 'alertRuleEnable'
  | 'alertRuleDelete'
  | 'alertTemplateEnable'
  | 'alertRuleTest';

/** A change to the rules; the list (and histories) are read again after it. */
function useAlertMutation<K extends AlertCall>(name: K) {
  const team = useTeamSlug();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<EndpointInput<ApiMap[K]>, 'team_slug'>) =>
      call(name, { team_slug: team, ...input } as EndpointInput<ApiMap[K]>),
    onSuccess: () => client.invalidateQueries({ queryKey: alertsKey(team) }),
  });
}

export const useCreateAlertRule = () => useAlertMutation('alertRuleCreate');
export const useUpdateAlertRule = () => useAlertMutation('alertRuleUpdate');
export const useEnableAlertRule = () => useAlertMutation('alertRuleEnable');
export const useDeleteAlertRule = () => useAlertMutation('alertRuleDelete');
export const useEnableAlertTemplate = () => useAlertMutation('alertTemplateEnable');
export const useTestAlertRule = () => useAlertMutation('alertRuleTest');
