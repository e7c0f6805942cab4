import { Card, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Pager } from '../../components/Pager.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { pageCount } from '../../lib/paging.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { type ApprovalView, useApprovalsQuery } from './api.ts';
import { RequestCard } from './RequestCard.tsx';

/** One view of the requests, newest first, ten a page, each a card with what was asked. */
export function RequestList({ view, emptyKey }: { view: ApprovalView; emptyKey: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useApprovalsQuery(view, page);
  if (query.isError) return <DataFetchError onRetry={() => void query.refetch()} />;
  if (!query.data)
    return (
      <Stack gap="md" aria-busy="true" data-testid="approvals-loading">
        <Skeleton h={160} radius="md" />
        <Skeleton h={160} radius="md" />
      </Stack>
    );
  const { results, count } = query.data;
  if (results.length === 0)
    return (
      <Card withBorder radius="md" padding="xl" data-testid="approvals-empty">
        <Text c="dimmed" ta="center">
          {t(emptyKey)}
        </Text>
      </Card>
    );
  return (
    <Stack gap="md" data-testid={`approvals-list-${view}`}>
      {results.map((request) => (
        <RequestCard key={request.id} request={request} />
      ))}
      <Pager page={page} pages={pageCount(count)} total={count} shown={results.length} onPage={setPage} />
    </Stack>
  );
}
