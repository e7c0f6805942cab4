import { Button, Checkbox, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { type ShareLinkRow, useRevokeSharesMutation, useShareLinksQuery } from './api.ts';
import { SharingLimits } from './SharingLimits.tsx';
import { EmptyRows, Pager, SkeletonRows } from './table.tsx';

const COLUMNS = 7;

/** Sharing: the team's active share links by member, revoke, and the sharing limits. */
export function Sharing() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [revoking, setRevoking] = useState<ShareLinkRow[] | null>(null);
  const list = useShareLinksQuery(page, debounced);
  const rows = list.data?.results ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.includes(r.share_id));
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  return (
    <Stack gap="lg" data-testid="sharing">
      <SharingLimits />
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <TextInput
            placeholder={t('audit.search')}
            aria-label={t('audit.search')}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
              setSelected([]);
            }}
            w={{ base: '100%', xs: 280 }}
            size="sm"
          />
          {selected.length > 0 && (
            <Button
              color="red"
              variant="light"
              size="sm"
              data-testid="revoke-selected"
              onClick={() => setRevoking(rows.filter((r) => selected.includes(r.share_id)))}
            >
              {t('sharing.revoke_selected', { n: selected.length })}
            </Button>
          )}
        </Group>
        {list.isError ? (
          <DataFetchError onRetry={() => void list.refetch()} />
        ) : (
          <div>
            <Table.ScrollContainer minWidth={860}>
              <Table verticalSpacing="sm" data-testid="share-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label={t('sharing.select_all')}
                        checked={allSelected}
                        indeterminate={!allSelected && selected.length > 0}
                        onChange={() => setSelected(allSelected ? [] : rows.map((r) => r.share_id))}
                      />
                    </Table.Th>
                    <Table.Th>{t('audit.col.member')}</Table.Th>
                    <Table.Th>{t('sharing.col.label')}</Table.Th>
                    <Table.Th>{t('sharing.col.created')}</Table.Th>
                    <Table.Th>{t('sharing.col.expires')}</Table.Th>
                    <Table.Th ta="right">{t('sharing.col.views')}</Table.Th>
                    <Table.Th w={100}>
                      <span style={{ position: 'absolute', left: -9999 }}>{t('members.col.actions')}</span>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {!list.data ? (
                    <SkeletonRows columns={COLUMNS} />
                  ) : rows.length === 0 ? (
                    <EmptyRows columns={COLUMNS} testId="share-empty">
                      <Text size="sm" c="dimmed">
                        {debounced ? t('audit.no_match') : t('sharing.empty')}
                      </Text>
                    </EmptyRows>
                  ) : (
                    rows.map((r) => (
                      <Table.Tr key={r.share_id} data-testid="share-row" data-email={r.email} data-label={r.label}>
                        <Table.Td>
                          <Checkbox
                            aria-label={t('sharing.select', { label: r.label || r.email })}
                            checked={selected.includes(r.share_id)}
                            onChange={() => toggle(r.share_id)}
                          />
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {r.email}
                          </Text>
                        </Table.Td>
                        <Table.Td>{r.label || <Text c="dimmed">–</Text>}</Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_at)}</Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.expires_at)}</Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {t('sharing.views_of', { n: formatNumber(r.views), limit: formatNumber(r.view_limit) })}
                        </Table.Td>
                        <Table.Td>
                          <Button size="xs" variant="subtle" color="red" onClick={() => setRevoking([r])}>
                            {t('sharing.revoke')}
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    ))
                  )}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {list.data && (
              <Pager
                total={list.data.total}
                pages={list.data.pages}
                page={page}
                onPage={(p) => {
                  setPage(p);
                  setSelected([]);
                }}
              />
            )}
          </div>
        )}
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
