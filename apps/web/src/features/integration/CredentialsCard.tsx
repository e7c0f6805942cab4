import type { Credential } from '@latchkey/contracts/client';
import { ActionIcon, Badge, Button, Menu, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
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
      ) : !list.data ? (
        <Stack gap="xs">
          <Skeleton h={32} />
          <Skeleton h={32} />
        </Stack>
      ) : list.data.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="md" data-testid="credentials-empty">
          {t('integration.credentials.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" data-testid="credentials-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('integration.credentials.name')}</Table.Th>
                <Table.Th>{t('integration.credentials.id')}</Table.Th>
                <Table.Th>{t('integration.credentials.hub')}</Table.Th>
                <Table.Th w={48}>
                  <span style={{ position: 'absolute', left: -9999 }}>{t('members.col.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((c) => (
                <Table.Tr key={c.credential_id} data-testid="credential-row">
                  <Table.Td fw={500}>{c.name}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {c.credential_id}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {c.server_url ? (
                      <Text size="sm" style={{ wordBreak: 'break-all' }}>
                        {c.server_url}
                      </Text>
                    ) : (
                      <Badge variant="light" color="gray">
                        {t('integration.credentials.not_set_up')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={t('integration.credentials.actions_for', { name: c.name })}
                          data-testid="credential-menu"
                        >
                          ⋯
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
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
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pending?.kind === 'add' && <AddCredentialDialog onClose={close} />}
      {pending?.kind === 'rename' && <RenameCredentialDialog credential={pending.credential} onClose={close} />}
      {pending?.kind === 'delete' && <DeleteCredentialDialog credential={pending.credential} onClose={close} />}
      {pending?.kind === 'setup' && <SetupCredentialDialog credential={pending.credential} onClose={close} />}
    </SectionCard>
  );
}
