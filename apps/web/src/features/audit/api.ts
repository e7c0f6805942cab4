import type { ApiMap, AuditField, EndpointOutput } from '@latchkey/contracts/client';
import { DEFAULT_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the security audit screens; the team slug scopes the cache. */
const auditKeys = {
  all: (team: string) => ['audit', team] as const,
  list: (team: string, q: AuditQuery) => [...auditKeys.all(team), 'list', q] as const,
  summary: (team: string, summaryId: string) => [...auditKeys.all(team), 'summary', summaryId] as const,
  policy: (team: string) => [...auditKeys.all(team), 'policy'] as const,
};

interface AuditQuery {
  page: number;
  field: AuditField;
  desc: boolean;
  search: string;
}

export type AuditSummaryRow = EndpointOutput<ApiMap['auditSummaries']>['results'][number];
/** A device that reports a member's vault summary. */
export type VaultDevice = EndpointOutput<ApiMap['auditSummary']>['devices'][number];

export function useAuditSummariesQuery(q: AuditQuery) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: auditKeys.list(team, q),
    queryFn: () =>
      call('auditSummaries', {
        team_slug: team,
        page: q.page,
        page_size: DEFAULT_PAGE_SIZE,
        ordering: { field_id: q.field, desc: q.desc },
        search_value: q.search,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useVaultSummaryQuery(summaryId: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: auditKeys.summary(team, summaryId),
    queryFn: () => call('auditSummary', { team_slug: team, summary_id: summaryId }),
    retry: false,
  });
}

export function useAuditPolicyQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: auditKeys.policy(team),
    queryFn: async () => (await call('auditPolicy', {})).policy,
  });
}
