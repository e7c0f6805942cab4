import { Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { DataTable } from '../../components/DataTable.tsx';
import { ListToolbar } from '../../components/ListToolbar.tsx';
import { PageAction } from '../../components/PageHeader.tsx';
import { toastFailure } from '../../lib/failure-toast.ts';
import { formatNumber } from '../../lib/format.ts';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { type MemberAction, useExportMembersMutation, useMembersCountQuery, useMembersPageQuery } from './api.ts';
import { ConfirmAction, InviteModal } from './MemberDialogs.tsx';
import { MemberFilterChips, MemberFilterMenus, useMemberFilters } from './MemberFilters.tsx';
import { useMemberColumns } from './member-columns.tsx';
import { currentCursor, firstPage, nextPage, type Paging, pageNumber, visitedPage } from './rules.ts';

/** The members list (spec §4): search and filters, bulk actions, keyset pages, invitations and CSV export. */
export function Members() {
  const { t } = useTranslation();
  // Keyset pages (Paging below) instead of the list state's page number.
  const { search, setSearch, term, selected, setSelected } = useListState();
  const filterState = useMemberFilters(term);
  const { filters, usage, licence, source } = filterState;
  const [paging, setPaging] = useState<Paging>(firstPage);
  const [pending, setPending] = useState<MemberAction | null>(null);
  const [inviting, setInviting] = useState(false);
  // The dialog leaves the page when it closes: the focus goes back to the button that opened it.
  const inviteOpener = useRef<HTMLButtonElement | null>(null);
  const openInvite = (event: React.MouseEvent<HTMLButtonElement>) => {
    inviteOpener.current = event.currentTarget;
    setInviting(true);
  };
  const [exporting, setExporting] = useState(false);

  // Any change of search or filter goes back to page 1 (spec §4).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every filter change
  useEffect(() => {
    setPaging(firstPage());
    setSelected([]);
  }, [filters]);

  const page = useMembersPageQuery(filters, currentCursor(paging));
  const count = useMembersCountQuery(filters);
  const rows = page.data?.results ?? [];
  const exporter = useExportMembersMutation();

  const download = async () => {
    setExporting(true);
    try {
      const { csv } = await exporter.mutateAsync(filters);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'members.csv';
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toastFailure(t, error);
    } finally {
      setExporting(false);
    }
  };

  const columns = useMemberColumns(setPending);

  return (
    <Stack gap="md" data-testid="members">
      <ListToolbar
        search={{ value: search, onChange: setSearch, label: t('members.search'), testId: 'members-search' }}
        filters={<MemberFilterMenus state={filterState} />}
      />
      <PageAction>
        <Button variant="default" size="sm" onClick={download} loading={exporting} data-testid="export-csv">
          {t('members.export')}
        </Button>
        <Button size="sm" onClick={openInvite} data-testid="invite-open">
          {t('members.invite')}
        </Button>
      </PageAction>

      <MemberFilterChips state={filterState} />

      {selected.length > 0 && (
        <Group gap="sm" p="xs" bg="var(--mantine-color-indigo-0)" style={{ borderRadius: 8 }} data-testid="bulk-bar">
          <Text size="sm" fw={600}>
            {t('members.selected', { n: formatNumber(selected.length) })}
          </Text>
          <Button size="xs" variant="light" onClick={() => setPending({ kind: 'assign', emails: selected })}>
            {t('members.action.assign')}
          </Button>
          <Button size="xs" variant="light" onClick={() => setPending({ kind: 'revoke', emails: selected })}>
            {t('members.action.revoke')}
          </Button>
          <Button size="xs" variant="light" color="red" onClick={() => setPending({ kind: 'remove', emails: selected })}>
            {t('members.action.remove')}
          </Button>
        </Group>
      )}

      <DataTable
        columns={columns}
        rows={page.data ? rows : undefined}
        rowKey={(m) => m.email}
        rowProps={(m) => ({ 'data-testid': 'member-row', 'data-email': m.email })}
        testId="members-table"
        minWidth={900}
        error={page.isError}
        onRetry={() => void page.refetch()}
        selection={{
          selected,
          onChange: setSelected,
          allLabel: t('members.select_all'),
          rowLabel: (m) => t('members.select', { email: m.email }),
        }}
        emptyTestId="members-empty"
        empty={
          <>
            <Text c="dimmed">
              {filters.search_value || usage.length || licence.length || source.length || filters.hub_authentication
                ? t('members.no_match')
                : t('members.empty')}
            </Text>
            <Button variant="light" onClick={openInvite}>
              {t('members.invite')}
            </Button>
          </>
        }
        pager={{
          page: pageNumber(paging),
          hasNext: Boolean(page.data?.next_cursor) && !page.isPlaceholderData,
          total: count.data,
          shown: rows.length,
          rangeTestId: 'members-range',
          onPage: (n) => {
            const cursor = page.data?.next_cursor;
            if (n <= pageNumber(paging)) setPaging((p) => visitedPage(p, n));
            else if (cursor) setPaging((p) => nextPage(p, cursor));
          },
        }}
      />

      {pending && (
        <ConfirmAction
          action={pending}
          onClose={(done) => {
            setPending(null);
            if (done) setSelected([]);
          }}
        />
      )}
      {inviting && (
        <InviteModal
          onClose={() => {
            setInviting(false);
            inviteOpener.current?.focus();
          }}
        />
      )}
    </Stack>
  );
}
