import type { Credential } from '@latchkey/contracts/client';
import { Badge, Button, Menu, Text } from '@mantine/core';
import { useState } from 'react';
import { type Column, DataTable, RowMenu } from '../../components/DataTable.tsx';
import { SectionCard } from '../../components/SectionCard.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { useCredentialsQuery } from './api.ts';
import {
  AddCredentialDialog,
  DeleteCredentialDialog,
  RenameCredentialDialog,
  SetupCredentialDialog,
} from './CredentialDialogs.tsx';

type Pending = { kind: 'rename' | 'delete' | 'setup'; credential: Credential } | { kind: 'add' } | null;

/** The team's Hub credentials (`latchkey_hosted_hub`): add, rename, set up on a Hub, delete. */
export function CredentialsCard() {
  const { t } = useTranslation();
  const list = useCredentialsQuery();
  const [pending, setPending] = useState<Pending>(null);
  const close = () => setPending(null);
  const columns: Column<Credential>[] = [
    {
      key: 'name',
      header: 'integration.credentials.name',
      cell: (c) => (
        <Text size="sm" fw={500}>
          {c.name}
        </Text>
      ),
    },
    {
      key: 'id',
      header: 'integration.credentials.id',
      cell: (c) => (
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {c.credential_id}
        </Text>
      ),
    },
    {
      key: 'hub',
      header: 'integration.credentials.hub',
      cell: (c) =>
        c.server_url ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {c.server_url}
          </Text>
        ) : (
          <Badge variant="light" color="gray">
            {t('integration.credentials.not_set_up')}
          </Badge>
        ),
    },
    {
      key: 'actions',
      header: 'members.col.actions',
      headerHidden: true,
      width: 48,
      cell: (c) => (
        <RowMenu label={t('integration.credentials.actions_for', { name: c.name })} testId="credential-menu">
          {!c.server_url && (
            <Menu.Item onClick={() => setPending({ kind: 'setup', credential: c })}>
              {t('integration.credentials.set_up')}
            </Menu.Item>
          )}
          <Menu.Item onClick={() => setPending({ kind: 'rename', credential: c })}>
            {t('integration.credentials.rename')}
          </Menu.Item>
          <Menu.Item color="red.9" onClick={() => setPending({ kind: 'delete', credential: c })}>
            {t('integration.credentials.delete')}
          </Menu.Item>
        </RowMenu>
      ),
    },
  ];
  return (
    <SectionCard
      title={t('integration.credentials.title')}
      testId="hub-credentials"
      action={
        <Button size="sm" variant="default" onClick={() => setPending({ kind: 'add' })} data-testid="credential-add-open">
          {t('integration.credentials.add')}
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        {/* The product's name, not its identifier (latchkey_hosted_hub) */}
        {t('integration.credentials.intro', { product: 'Latchkey Hub' })}
      </Text>
      {list.isError ? (
        <DataFetchError onRetry={() => void list.refetch()} />
      ) : (
        // Below 768 px its rows are cards, like every list's.
        <DataTable
          columns={columns}
          rows={list.data}
          rowKey={(c) => c.credential_id}
          rowProps={() => ({ 'data-testid': 'credential-row' })}
          testId="credentials-table"
          minWidth={560}
          skeletonRows={2}
          emptyTestId="credentials-empty"
          empty={
            <Text size="sm" c="dimmed" ta="center">
              {t('integration.credentials.empty')}
            </Text>
          }
        />
      )}
      {pending?.kind === 'add' && <AddCredentialDialog onClose={close} />}
      {pending?.kind === 'rename' && <RenameCredentialDialog credential={pending.credential} onClose={close} />}
      {pending?.kind === 'delete' && <DeleteCredentialDialog credential={pending.credential} onClose={close} />}
      {pending?.kind === 'setup' && <SetupCredentialDialog credential={pending.credential} onClose={close} />}
    </SectionCard>
  );
}
