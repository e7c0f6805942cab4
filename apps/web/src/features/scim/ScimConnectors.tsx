import {
  MAX_SCIM_CONNECTOR_NAME,
  SCIM_IDPS,
  SCIM_MAX_OVERLAP_HOURS,
  type ScimConnector,
  type ScimIdp,
  type ScimRequest,
} from '@latchkey/contracts/client';
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  List,
  Menu,
  Modal,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type Column, DataTable, RowMenu } from '../../components/DataTable.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useConnectorMutation, useConnectorsQuery, useRequestsQuery } from './api.ts';
import { stepKeys } from './idp-steps.ts';

type Dialog =
  | { kind: 'create' }
  | { kind: 'rotate'; connector: ScimConnector }
  | { kind: 'revoke'; connector: ScimConnector }
  | { kind: 'token'; idp: ScimIdp; token: string; tenantUrl: string; rotated: boolean };

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
      <Group justify="space-between" gap="sm" align="flex-end" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 300px' }}>
          <Text size="sm" fw={500}>
            {t('scim.tenant_url')}
          </Text>
          {tenantUrl ? <CopyField value={tenantUrl} testId="scim-tenant-url" /> : <Text c="dimmed">…</Text>}
        </Stack>
        <Button size="sm" onClick={() => setDialog({ kind: 'create' })} data-testid="scim-create-open">
          {t('scim.create')}
        </Button>
      </Group>

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

function useConnectorColumns(open: (d: Dialog) => void, showLog: (c: ScimConnector) => void): Column<ScimConnector>[] {
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

function CopyField({ value, testId }: { value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ wordBreak: 'break-all', flex: 1 }} data-testid={testId}>
        {value}
      </Code>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Button size="xs" variant="light" onClick={copy} data-testid={`${testId}-copy`}>
            {t(copied ? 'integration.copied' : 'integration.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

function CreateDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (idp: ScimIdp, token: string, url: string) => void;
}) {
  const { t } = useTranslation();
  const mutation = useConnectorMutation();
  const [idp, setIdp] = useState<ScimIdp>('entra');
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const trimmed = name.trim();
  const problem = trimmed ? null : 'this field is required';
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem) return;
    mutation.mutate(
      { kind: 'create', idp, name: trimmed },
      {
        onSuccess: (reply) => {
          if (reply && 'token' in reply) onCreated(idp, reply.token, reply.tenant_url);
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('scim.create.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md" data-testid="scim-create-dialog">
          <ModalError error={mutation.error} />
          <Select
            label={t('scim.idp')}
            data={SCIM_IDPS.map((value) => ({ value, label: t(`scim.idp.${value}`) }))}
            value={idp}
            onChange={(v) => {
              if (!v) return;
              setIdp(v as ScimIdp);
            }}
            allowDeselect={false}
            data-testid="scim-idp"
          />
          <TextInput
            label={t('scim.name')}
            placeholder={t(`scim.idp.${idp}`)}
            value={name}
            maxLength={MAX_SCIM_CONNECTOR_NAME}
            onChange={(e) => setName(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched && problem ? t(problem) : undefined}
            data-autofocus
            data-testid="scim-name"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending} disabled={touched && !!problem} data-testid="scim-create-submit">
              {t('scim.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RotateDialog({
  connector,
  onClose,
  onRotated,
}: {
  connector: ScimConnector;
  onClose: () => void;
  onRotated: (token: string, url: string) => void;
}) {
  const { t } = useTranslation();
  const mutation = useConnectorMutation();
  const [hours, setHours] = useState<number>(24);
  const valid = Number.isInteger(hours) && hours >= 0 && hours <= SCIM_MAX_OVERLAP_HOURS;
  return (
    <ConfirmDialog
      title={t('scim.rotate.title', { name: connector.name })}
      action={t('scim.rotate')}
      color={null}
      pending={mutation.isPending}
      error={mutation.error}
      confirmDisabled={!valid}
      testId="scim-rotate-dialog"
      confirmTestId="scim-rotate-confirm"
      onConfirm={() =>
        mutation.mutate(
          { kind: 'rotate', id: connector.id, overlap_hours: hours },
          {
            onSuccess: (reply) => {
              if (reply && 'token' in reply) onRotated(reply.token, reply.tenant_url);
            },
          },
        )
      }
      onClose={onClose}
    >
      <Stack gap="sm">
        <Text size="sm">{t('scim.rotate.body')}</Text>
        <NumberInput
          label={t('scim.rotate.overlap')}
          description={t('scim.rotate.overlap_hint', { max: formatNumber(SCIM_MAX_OVERLAP_HOURS) })}
          min={0}
          max={SCIM_MAX_OVERLAP_HOURS}
          allowDecimal={false}
          value={hours}
          onChange={(v) => setHours(typeof v === 'number' ? v : Number.NaN)}
          error={valid ? undefined : t('scim.rotate.overlap_invalid', { max: formatNumber(SCIM_MAX_OVERLAP_HOURS) })}
          data-testid="scim-overlap"
        />
      </Stack>
    </ConfirmDialog>
  );
}

function RevokeDialog({ connector, onClose }: { connector: ScimConnector; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useConnectorMutation();
  return (
    <ConfirmDialog
      title={t('scim.revoke.title', { name: connector.name })}
      action={t('scim.revoke')}
      pending={mutation.isPending}
      error={mutation.error}
      testId="scim-revoke-dialog"
      confirmTestId="scim-revoke-confirm"
      onConfirm={() =>
        mutation.mutate(
          { kind: 'revoke', id: connector.id },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: t('scim.done.revoke', { name: connector.name }) });
              onClose();
            },
          },
        )
      }
      onClose={onClose}
    >
      {t('scim.revoke.body')}
    </ConfirmDialog>
  );
}

/** The token, once, with the tenant URL and the identity provider's setup steps. */
function TokenDialog({
  idp,
  token,
  tenantUrl,
  rotated,
  onClose,
}: {
  idp: ScimIdp;
  token: string;
  tenantUrl: string;
  rotated: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t(rotated ? 'scim.token.rotated_title' : 'scim.token.title')} centered size="lg">
      <Stack gap="md" data-testid="scim-token-dialog">
        <Alert color="yellow">{t('scim.token.once')}</Alert>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('scim.tenant_url')}
          </Text>
          <CopyField value={tenantUrl} testId="scim-token-tenant-url" />
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('scim.token')}
          </Text>
          <CopyField value={token} testId="scim-token" />
        </Stack>
        <Stack gap={4}>
          <Title order={3} size="h5">
            {t('scim.steps.title', { idp: t(`scim.idp.${idp}`) })}
          </Title>
          <List type="ordered" size="sm" spacing={4} data-testid="scim-steps">
            {stepKeys(idp).map((key) => (
              <List.Item key={key}>{t(key)}</List.Item>
            ))}
          </List>
        </Stack>
        <Group justify="flex-end">
          <Button onClick={onClose} data-testid="scim-token-done">
            {t('scim.token.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RequestLog({ connector, onClose }: { connector: ScimConnector; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const requests = useRequestsQuery(connector.id, page);
  const columns: Column<ScimRequest>[] = [
    {
      key: 'at',
      header: 'scim.log.at',
      width: 190,
      visibleFrom: 'sm',
      cell: (r) => <Text size="sm">{formatDateTime(r.at)}</Text>,
    },
    {
      key: 'request',
      header: 'scim.log.request',
      maxWidth: 320,
      cell: (r) => (
        <>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {r.method} {r.path}
          </Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {formatDateTime(r.at)}
          </Text>
        </>
      ),
    },
    {
      key: 'status',
      header: 'scim.log.status',
      width: 90,
      cell: (r) => (
        <Badge
          variant="light"
          color={r.status >= 500 ? 'red' : r.status >= 400 ? 'yellow' : 'green'}
          data-testid="scim-log-status"
        >
          {r.status}
        </Badge>
      ),
    },
    {
      key: 'duration',
      header: 'scim.log.duration',
      width: 100,
      align: 'right',
      visibleFrom: 'sm',
      cell: (r) => <Text size="sm">{t('scim.log.ms', { n: formatNumber(r.duration_ms) })}</Text>,
    },
    {
      key: 'error',
      header: 'scim.log.error',
      maxWidth: 260,
      visibleFrom: 'md',
      cell: (r) => (
        <Text size="xs" c={r.error ? 'red' : 'dimmed'} lineClamp={2}>
          {r.error ?? '—'}
        </Text>
      ),
    },
  ];
  return (
    <Card withBorder radius="md" padding="md" data-testid="scim-log">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('scim.log.title', { name: connector.name })}
          </Title>
          <Button size="xs" variant="default" onClick={onClose}>
            {t('scim.log.close')}
          </Button>
        </Group>
        <DataTable
          columns={columns}
          rows={requests.data?.results}
          rowKey={(r) => r.id}
          rowProps={() => ({ 'data-testid': 'scim-log-row' })}
          testId="scim-log-table"
          minWidth={300}
          skeletonRows={3}
          error={requests.isError}
          onRetry={() => void requests.refetch()}
          emptyTestId="scim-log-empty"
          empty={<Text c="dimmed">{t('scim.log.empty')}</Text>}
          pager={
            requests.data
              ? {
                  page,
                  pages: requests.data.pages,
                  total: requests.data.count,
                  shown: requests.data.results.length,
                  onPage: setPage,
                }
              : undefined
          }
        />
      </Stack>
    </Card>
  );
}
