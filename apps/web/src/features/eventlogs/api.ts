import {
  type ApiMap,
  DEFAULT_PAGE_SIZE,
  type EndpointInput,
  type EndpointOutput,
  type EventFilters,
  type ExportFormat,
} from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, refreshSession, routeTable } from '../../lib/api.ts';
import { ApiError } from '../../lib/api-error.ts';
import { newRequestId, REQUEST_ID_HEADER } from '../../lib/request-id.ts';
import { getSession, needsRefresh } from '../../lib/session.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the event log screens; the team slug scopes the cache. */
export const eventKeys = {
  all: (team: string) => ['eventlogs', team] as const,
  list: (team: string) => [...eventKeys.all(team), 'list'] as const,
  filters: (team: string) => [...eventKeys.all(team), 'filters'] as const,
  config: (team: string) => [...eventKeys.all(team), 'config'] as const,
  siem: (team: string) => [...eventKeys.all(team), 'siem'] as const,
};

export type EventRow = EndpointOutput<ApiMap['auditLogsFetch']>['results'][number];
export type Filters = Required<Omit<EventFilters, 'dates'>> & {
  dates: { start_timestamp: number | null; end_timestamp: number | null };
};
export const EMPTY_FILTERS: Filters = {
  activities: [],
  actors: [],
  components: [],
  ip_addresses: [],
  dates: { start_timestamp: null, end_timestamp: null },
  search_value: '',
};

/**
 * One page of the log. `beforeSeq` is the keyset cursor of the page asked for when the screen
 * knows it (the previous page's last row): the Hub then reads no row it does not show.
 */
export function useEventLogsQuery(page: number, filters: Filters, beforeSeq: number | undefined) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...eventKeys.list(team), page, filters, beforeSeq],
    queryFn: () =>
      call('auditLogsFetch', {
        team_slug: team,
        page,
        page_size: DEFAULT_PAGE_SIZE,
        filters,
        ...(beforeSeq !== undefined ? { before_seq: beforeSeq } : {}),
      }),
    placeholderData: keepPreviousData,
    // A live log: searching again for what just happened asks the Hub again (the console's default
    // keeps an answer fresh for 15 s, which showed "no events" that long).
    staleTime: 1_000,
  });
}

export function useEventFiltersQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: eventKeys.filters(team),
    queryFn: () => call('auditLogsFiltersFetch', { team_slug: team }),
  });
}

export function useEventLogsConfigQuery() {
  const team = useTeamSlug();
  return useQuery({ queryKey: eventKeys.config(team), queryFn: () => call('auditLogsConfigurationFetch', { team_slug: team }) });
}

export function useSiemToolQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: eventKeys.siem(team),
    queryFn: () => call('siemTools', { team_slug: team }),
    // The health panel: lag and last sync move while events flow.
    refetchInterval: 10_000,
  });
}

/**
 * A mutation on the event log settings whose queries all refresh afterwards, refused or not: a
 * refused test still moves the destination to "Waiting for test".
 */
function useEventsMutation<K extends keyof ApiMap>(name: K) {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (input: Omit<EndpointInput<ApiMap[K]>, 'team_slug'>) =>
      call(name, { team_slug: team, ...input } as EndpointInput<ApiMap[K]>),
    onSettled: () => client.invalidateQueries({ queryKey: eventKeys.all(team) }),
  });
}

/** Re-computes the team's whole hash chain on the Hub; the answer lists every break. */
export function useVerifyChainMutation() {
  const team = useTeamSlug();
  return useMutation({ mutationFn: () => call('auditLogsVerify', { team_slug: team }) });
}
export type ChainVerification = EndpointOutput<ApiMap['auditLogsVerify']>;

export const useRetentionMutation = () => useEventsMutation('auditLogsConfigurationUpdate');
export const useSiemSwitchMutation = () => useEventsMutation('auditLogsConfiguration');
export const useSiemConfigureMutation = () => useEventsMutation('siemToolsConfigure');
export const useSiemUpdateMutation = () => useEventsMutation('siemToolUpdate');
export const usePullTokenMutation = () => useEventsMutation('auditLogsPullToken');

/**
 * Streams the current filter's export from the Hub and saves it: the body is read as it arrives,
 * so `onProgress(rows, total)` moves with it and memory holds the file once, in the browser's Blob.
 */
export async function exportEvents(
  format: ExportFormat,
  filters: Filters,
  onProgress: (rows: number, total: number) => void,
  signal?: AbortSignal,
): Promise<{ rows: number; filename: string; blob: Blob }> {
  let session = getSession();
  if (!session?.hub) throw new ApiError('hub_not_connected', 'No Hub is connected.', 0, 'FETCH_ERROR', 'hub');
  if (needsRefresh(session.hub.tokens.expires_at) || needsRefresh(session.token.expires_at)) session = await refreshSession();
  const hub = session.hub;
  if (!hub) throw new ApiError('hub_not_connected', 'No Hub is connected.', 0, 'FETCH_ERROR', 'hub');
  const route = (await routeTable()).auditLogsExport;
  let response: Response;
  try {
    response = await fetch(hub.server_url + route.path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${hub.tokens.access}`,
        [REQUEST_ID_HEADER]: newRequestId(),
      },
      body: JSON.stringify({ team_slug: session.team_slug, format, filters }),
      ...(signal ? { signal } : {}),
    });
  } catch {
    throw new ApiError('network', 'The Hub did not answer.', 0, 'FETCH_ERROR', 'hub');
  }
  if (!response.ok || !response.body) throw new ApiError('failed', 'The export failed.', response.status, 'FETCH_ERROR', 'hub');
  const total = Number(response.headers.get('x-total-count') ?? 0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let rows = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    for (const byte of value) if (byte === 10) rows++;
    onProgress(format === 'csv' ? Math.max(0, rows - 1) : rows, total);
  }
  const filename = `events-${session.team_slug}.${format}`;
  const blob = new Blob(parts as BlobPart[], { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' });
  return { rows: format === 'csv' ? Math.max(0, rows - 1) : rows, filename, blob };
}
