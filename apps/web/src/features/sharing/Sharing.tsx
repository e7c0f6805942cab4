import { Button, Menu, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { ListToolbar } from '../../components/ListToolbar.tsx';
import { RowMenu } from '../../components/RowMenu.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { type ShareLinkRow, useRevokeSharesMutation, useShareLinksQuery } from './api.ts';
import { SharingLimits } from './SharingLimits.tsx';

/** Sharing: the team's active share links by member, revoke, and the sharing limits. */
export function Sharing() {
  const { t } = useTranslation();
  const { search, setSearch, term: debounced, page, setPage, selected, setSelected } = useListState();
  const [revoking, setRevoking] = useState<ShareLinkRow[] | null>(null);
  const list = useShareLinksQuery(page, debounced);
  const rows = list.data?.results ?? [];
  const columns: Column<ShareLinkRow>[] = [
    {
      key: 'email',
      header: 'audit.col.member',
      cell: (r) => (
        <Text size="sm" fw={500}>
          <EmailAddress address={r.email} />
        </Text>
      ),
    },
    { key: 'label', header: 'sharing.col.label', cell: (r) => r.label || <Text c="dimmed">–</Text> },
    { key: 'created', header: 'sharing.col.created', nowrap: true, cell: (r) => formatDateTime(r.created_at) },
    { key: 'expires', header: 'sharing.col.expires', nowrap: true, cell: (r) => formatDateTime(r.expires_at) },
    {
      key: 'views',
      header: 'sharing.col.views',
      align: 'right',
      nowrap: true,
      cell: (r) => t('sharing.views_of', { n: formatNumber(r.views), limit: formatNumber(r.view_limit) }),
    },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (r) => (
        <RowMenu label={t('members.actions_for', { email: r.email })}>
          <Menu.Item color="red.9" onClick={() => setRevoking([r])}>
            {t('sharing.revoke')}
          </Menu.Item>
        </RowMenu>
      ),
    },
  ];
  return (
    <Stack gap="lg" data-testid="sharing">
      <SharingLimits />
      <Stack gap="sm">
        <ListToolbar
          search={{
            value: search,
            onChange: (value) => {
              setSearch(value);
              // At once, not when the term settles: no page past the new term's end, no hidden row selected.
              setPage(1);
              setSelected([]);
            },
            label: t('audit.search'),
          }}
          actions={
            selected.length > 0 && (
              <Button
                color="red"
                variant="light"
                size="sm"
                data-testid="revoke-selected"
                onClick={() => setRevoking(rows.filter((r) => selected.includes(r.share_id)))}
              >
                {t('sharing.revoke_selected', { n: selected.length })}
              </Button>
            )
          }
        />
        <DataTable
          columns={columns}
          rows={list.data?.results}
          rowKey={(r) => r.share_id}
          rowProps={(r) => ({ 'data-testid': 'share-row', 'data-email': r.email, 'data-label': r.label })}
          testId="share-table"
          minWidth={860}
          highlightOnHover={false}
          error={list.isError}
          onRetry={() => void list.refetch()}
          selection={{
            selected,
            onChange: setSelected,
            allLabel: t('sharing.select_all'),
            rowLabel: (r) => t('sharing.select', { label: r.label || r.email }),
          }}
          emptyTestId="share-empty"
          empty={
            <Text size="sm" c="dimmed">
              {debounced ? t('audit.no_match') : t('sharing.empty')}
            </Text>
          }
          pager={
            list.data && {
              page,
              pages: list.data.pages,
              total: list.data.total,
              shown: rows.length,
              onPage: (p) => {
                setPage(p);
                setSelected([]);
              },
            }
          }
        />
      </Stack>
      {revoking && (
        <ConfirmRevoke
          links={revoking}
          onClose={() => setRevoking(null)}
          onDone={() => {
            setSelected([]);
            setRevoking(null);
          }}
        />
      )}
    </Stack>
  );
}

function ConfirmRevoke({ links, onClose, onDone }: { links: ShareLinkRow[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const revoke = useRevokeSharesMutation();
  const one = links.length === 1 ? links[0] : undefined;
  return (
    <ConfirmDialog
      title={t('sharing.confirm.title')}
      action={t('sharing.revoke')}
      pending={revoke.isPending}
      error={revoke.error}
      onConfirm={() =>
        revoke.mutate(
          { share_ids: links.map((l) => l.share_id) },
          {
            onSuccess: (r) => {
              notifications.show({ color: 'teal', message: t('sharing.revoked', { n: r.revoked }) });
              onDone();
            },
          },
        )
      }
      onClose={onClose}
    >
      {one
        ? t('sharing.confirm.one', { label: one.label || '–', email: one.email })
        : t('sharing.confirm.many', { n: links.length })}
    </ConfirmDialog>
  );
}
