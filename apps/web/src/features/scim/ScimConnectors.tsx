import type { ScimConnector } from '@latchkey/contracts/client';
import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DataTable } from '../../components/DataTable.tsx';
import { PageAction } from '../../components/PageHeader.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { useConnectorsQuery } from './api.ts';
import { CreateDialog, RevokeDialog, RotateDialog } from './sections/ConnectorDialogs.tsx';
import { CopyField } from './sections/CopyField.tsx';
import { useConnectorColumns } from './sections/connector-columns.tsx';
import type { Dialog } from './sections/dialog.ts';
import { RequestLog } from './sections/RequestLog.tsx';
import { TokenDialog } from './sections/TokenDialog.tsx';

/** settings/scim-connectors: connectors per identity provider, their tokens, and what they sent. */
export function ScimConnectors() {
  const { t } = useTranslation();
  const connectors = useConnectorsQuery();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [logOf, setLogOf] = useState<ScimConnector | null>(null);
  const columns = useConnectorColumns(setDialog, setLogOf);
  const tenantUrl = connectors.data?.tenant_url;

  return (
    <Stack gap="md" data-testid="scim-connectors">
      <PageAction>
        <Button size="sm" onClick={() => setDialog({ kind: 'create' })} data-testid="scim-create-open">
          {t('scim.create')}
        </Button>
      </PageAction>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="sm" fw={500}>
          {t('scim.tenant_url')}
        </Text>
        {tenantUrl ? <CopyField value={tenantUrl} testId="scim-tenant-url" /> : <Text c="dimmed">…</Text>}
      </Stack>

      <DataTable
        columns={columns}
        rows={connectors.data?.results}
        rowKey={(c) => c.id}
        rowProps={(c) => ({ 'data-testid': 'scim-connector-row', 'data-name': c.name })}
        testId="scim-connectors-table"
        minWidth={340}
        skeletonRows={2}
        error={connectors.isError}
        onRetry={() => void connectors.refetch()}
        emptyTestId="scim-empty"
        empty={
          <>
            <Text c="dimmed">{t('scim.empty')}</Text>
            <Button variant="light" onClick={() => setDialog({ kind: 'create' })}>
              {t('scim.create')}
            </Button>
          </>
        }
      />

      {logOf && <RequestLog connector={logOf} onClose={() => setLogOf(null)} />}

      {dialog?.kind === 'create' && (
        <CreateDialog
          onClose={() => setDialog(null)}
          onCreated={(idp, token, url) => setDialog({ kind: 'token', idp, token, tenantUrl: url, rotated: false })}
        />
      )}
      {dialog?.kind === 'rotate' && (
        <RotateDialog
          connector={dialog.connector}
          onClose={() => setDialog(null)}
          onRotated={(token, url) =>
            setDialog({ kind: 'token', idp: dialog.connector.idp, token, tenantUrl: url, rotated: true })
          }
        />
      )}
      {dialog?.kind === 'revoke' && <RevokeDialog connector={dialog.connector} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'token' && <TokenDialog {...dialog} onClose={() => setDialog(null)} />}
    </Stack>
  );
}
