import type { ScimConnector } from '@latchkey/contracts/client';
import { Badge, Code, Menu, Stack, Text } from '@mantine/core';
import { type Column, RowMenu } from '../../../components/DataTable.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import type { Dialog } from './dialog.ts';

export function useConnectorColumns(open: (d: Dialog) => void, showLog: (c: ScimConnector) => void): Column<ScimConnector>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'name',
      header: 'scim.col.connector',
      maxWidth: 240,
      cell: (c) => (
        <>
          <Text size="sm" fw={500}>
            {c.name}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`scim.idp.${c.idp}`)}
          </Text>
        </>
      ),
    },
    { key: 'status', header: 'scim.col.status', width: 200, cell: (c) => <StatusBadge connector={c} /> },
    {
      key: 'token',
      header: 'scim.col.token',
      width: 120,
      visibleFrom: 'sm',
      cell: (c) => <Code>…{c.token_hint}</Code>,
    },
    {
      key: 'last',
      header: 'scim.col.last_request',
      width: 200,
      visibleFrom: 'sm',
      cell: (c) => (
        <Text size="sm" c={c.last_request_at ? undefined : 'dimmed'} data-testid="scim-last-request">
          {c.last_request_at ? formatDateTime(c.last_request_at) : t('scim.never')}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (c) => (
        <RowMenu label={t('scim.actions_for', { name: c.name })}>
          <Menu.Item onClick={() => showLog(c)} data-testid="scim-show-log">
            {t('scim.requests')}
          </Menu.Item>
          {!c.revoked_at && (
            <>
              <Menu.Item onClick={() => open({ kind: 'rotate', connector: c })} data-testid="scim-rotate-open">
                {t('scim.rotate')}
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" onClick={() => open({ kind: 'revoke', connector: c })} data-testid="scim-revoke-open">
                {t('scim.revoke')}
              </Menu.Item>
            </>
          )}
        </RowMenu>
      ),
    },
  ];
}

function StatusBadge({ connector: c }: { connector: ScimConnector }) {
  const { t } = useTranslation();
  if (c.revoked_at) {
    return (
      <Badge color="red" variant="light" data-testid="scim-status">
        {t('scim.status.revoked')}
      </Badge>
    );
  }
  return (
    <Stack gap={2}>
      <Badge color="green" variant="light" data-testid="scim-status">
        {t('scim.status.active')}
      </Badge>
      {c.previous_valid_until && (
        <Text size="xs" c="dimmed">
          {t('scim.status.overlap', { when: formatDateTime(c.previous_valid_until) })}
        </Text>
      )}
    </Stack>
  );
}
