import {
  IDP_TYPES,
  SIGN_MODES,
  SSO_CONFIG_NAME_MAX,
  SSO_METADATA_URL_MAX,
  type SsoConfig,
  type SsoTestResult,
} from '@latchkey/contracts/client';
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { formatDateTime } from '../../lib/format.ts';
import { limitProps, trimPasted } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { startSsoTest, useSsoConfigsQuery, useSsoMutation, useSsoPolicyQuery, useSsoRefresh, useSsoTestQuery } from './api.ts';
import { MetadataDrop } from './MetadataDrop.tsx';
import { SetupSteps } from './SetupSteps.tsx';
import { openTestChannel, type TestMessage } from './test-channel.ts';

const STATUS_COLOR: Record<SsoConfig['status'], string> = {
  awaiting_metadata: 'gray',
  awaiting_test: 'yellow',
  tested: 'blue',
  active: 'green',
};

/** settings/sso-connector: the service provider to copy, the connectors, the tester, enforcement. */
export function SsoConnector() {
  const { t } = useTranslation();
  const configs = useSsoConfigsQuery();
  const [creating, setCreating] = useState(false);
  if (configs.isError) return <DataFetchError onRetry={() => void configs.refetch()} />;
  return (
    <Stack gap="lg" data-testid="sso-connector">
      <ServiceProviderCard />
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('sso.connectors')}
          </Title>
          <Button onClick={() => setCreating(true)} data-testid="sso-create">
            {t('sso.create')}
          </Button>
        </Group>
        {configs.isPending ? (
          <Skeleton h={160} />
        ) : configs.data.configs.length === 0 ? (
          <Card withBorder padding="lg">
            <Text c="dimmed" size="sm" data-testid="sso-empty">
              {t('sso.empty')}
            </Text>
          </Card>
        ) : (
          configs.data.configs.map((config) => <ConnectorCard key={config.config_uuid} config={config} />)
        )}
      </Stack>
      <EnforcementCard />
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
    </Stack>
  );
}

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code
          block
          style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', maxHeight: 120, overflowY: 'auto' }}
          // A scrolling box (the certificate) must be reachable by keyboard to be read.
          tabIndex={0}
          aria-label={label}
          data-testid={testId}
        >
          {value}
        </Code>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {t(copied ? 'sso.copied' : 'sso.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

function ServiceProviderCard() {
  const { t } = useTranslation();
  const configs = useSsoConfigsQuery();
  const sp = configs.data?.service_provider;
  const download = () => {
    if (!sp) return;
    const url = URL.createObjectURL(new Blob([sp.metadata_xml], { type: 'application/samlmetadata+xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'latchkey-sp-metadata.xml';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Card withBorder radius="md" padding="lg" data-testid="sso-sp">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('sso.sp_title')}
          </Title>
          <Button variant="default" onClick={download} disabled={!sp} data-testid="sso-sp-download">
            {t('sso.sp_download')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('sso.sp_hint')}
        </Text>
        {sp ? (
          <>
            <CopyField label={t('sso.entity_id')} value={sp.entity_id} testId="sso-sp-entity" />
            <CopyField label={t('sso.acs_url')} value={sp.acs_url} testId="sso-sp-acs" />
            <CopyField label={t('sso.certificate')} value={sp.certificate.trim()} testId="sso-sp-cert" />
          </>
        ) : (
          <Skeleton h={120} />
        )}
      </Stack>
    </Card>
  );
}

function CreateDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useSsoMutation();
  const [name, setName] = useState('');
  const [type, setType] = useState<string>('azure');
  const [touched, setTouched] = useState(false);
  const nameError = touched && !name.trim() ? t('this field is required') : undefined;
  const submit = () => {
    setTouched(true);
    if (!name.trim()) return;
    mutation.mutate(
      { kind: 'create', input: { config_name: name.trim(), idp_type: type as SsoConfig['idp_type'] } },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('sso.created') });
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('sso.create_title')} centered data-testid="sso-create-dialog">
      <Stack gap="sm">
        {mutation.isError && <Alert color="red">{t(errorMessage(mutation.error), errorValues(mutation.error))}</Alert>}
        <TextInput
          label={t('sso.config_name')}
          value={name}
          maxLength={SSO_CONFIG_NAME_MAX}
          onChange={(e) => setName(e.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={nameError}
          data-autofocus
          data-testid="sso-create-name"
        />
        <Select
          label={t('sso.idp_type')}
          data={IDP_TYPES.map((v) => ({ value: v, label: t(`sso.idp.${v}`) }))}
          value={type}
          onChange={(v) => v && setType(v)}
          allowDeselect={false}
          data-testid="sso-create-type"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} loading={mutation.isPending} disabled={!name.trim()} data-testid="sso-create-save">
            {t('sso.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ConnectorCard({ config }: { config: SsoConfig }) {
  const { t } = useTranslation();
  const mutation = useSsoMutation();
  const [url, setUrl] = useState(config.metadata_url ?? '');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [testId, setTestId] = useState<string | null>(null);
  const [testError, setTestError] = useState<unknown>(null);
  const [testing, setTesting] = useState(false);
  const channel = useRef<BroadcastChannel | null>(null);
  const refresh = useSsoRefresh();
  useEffect(() => () => channel.current?.close(), []);

  const done = (key: string) => notifications.show({ color: 'teal', message: t(key) });
  const urlProblem = url && !/^https?:\/\/\S+$/i.test(url) ? t('invalid url') : undefined;

  const upload = (xml: string) =>
    mutation.mutate(
      { kind: 'update', input: { config_uuid: config.config_uuid, metadata_xml: xml } },
      { onSuccess: () => done('sso.metadata_saved') },
    );

  /** Opens the IdP in a window; its result comes back over the test channel (spec §4). */
  const test = async () => {
    setTestError(null);
    setTestId(null);
    // Opened now, in the click, so no popup blocker stops it; sent to the IdP once the request is made.
    const win = window.open('about:blank', 'latchkey-sso-test', 'width=600,height=500');
    setTesting(true);
    try {
      const started = await startSsoTest(config.config_uuid);
      channel.current?.close();
      const ch = openTestChannel();
      channel.current = ch;
      ch.onmessage = (event: MessageEvent<TestMessage>) => {
        const message = event.data;
        if (message?.type !== 'sso_test_result' || message.saml_request_id !== started.saml_request_id) return;
        ch.postMessage({ type: 'sso_test_ack', saml_request_id: message.saml_request_id } satisfies TestMessage);
        setTestId(message.saml_request_id);
        setTesting(false);
        mutation.reset();
        void refresh();
      };
      if (win) win.location.href = started.redirect_url;
      else window.open(started.redirect_url, 'latchkey-sso-test', 'width=600,height=500');
    } catch (error) {
      win?.close();
      setTesting(false);
      setTestError(error);
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" data-testid={`sso-config-${config.config_name}`}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Stack gap={0}>
            <Text fw={600}>{config.config_name}</Text>
            <Text size="sm" c="dimmed">
              {t(`sso.idp.${config.idp_type}`)}
            </Text>
          </Stack>
          <Badge color={STATUS_COLOR[config.status]} variant="light" data-testid="sso-status">
            {t(`sso.status.${config.status}`)}
          </Badge>
        </Group>
        {(mutation.isError || testError !== null) && (
          <Alert color="red" data-testid="sso-config-error">
            {t(errorMessage(mutation.error ?? testError), errorValues(mutation.error ?? testError))}
          </Alert>
        )}
        {!config.is_active && <SetupSteps type={config.idp_type} />}
        {config.idp_entity_id && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span c="dimmed">
                {t('sso.idp_entity')}:{' '}
              </Text>
              {config.idp_entity_id}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span c="dimmed">
                {t('sso.idp_sso_url')}:{' '}
              </Text>
              {config.idp_sso_url}
            </Text>
          </SimpleGrid>
        )}
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            {...limitProps(SSO_METADATA_URL_MAX, trimPasted)}
            style={{ flex: 1, minWidth: 220 }}
            label={t('sso.metadata_url')}
            placeholder="https://idp.example.com/metadata"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value.trim())}
            error={urlProblem}
            data-testid="sso-metadata-url"
          />
          <Button
            variant="default"
            disabled={!url || Boolean(urlProblem)}
            loading={mutation.isPending && mutation.variables?.kind === 'update'}
            onClick={() =>
              mutation.mutate(
                { kind: 'update', input: { config_uuid: config.config_uuid, metadata_url: url } },
                { onSuccess: () => done('sso.metadata_saved') },
              )
            }
            data-testid="sso-metadata-fetch"
          >
            {t('sso.metadata_fetch')}
          </Button>
        </Group>
        <MetadataDrop
          onXml={upload}
          busy={mutation.isPending && mutation.variables?.kind === 'update' && Boolean(mutation.variables.input.metadata_xml)}
        />
        <Select
          maw={320}
          label={t('sso.sign_mode')}
          data={SIGN_MODES.map((v) => ({ value: v, label: t(`sso.sign_mode.${v}`) }))}
          value={config.sign_mode}
          allowDeselect={false}
          onChange={(v) =>
            v &&
            v !== config.sign_mode &&
            mutation.mutate({
              kind: 'update',
              input: { config_uuid: config.config_uuid, sign_mode: v as SsoConfig['sign_mode'] },
            })
          }
        />
        {config.tested_at && (
          <Text size="xs" c="dimmed">
            {t('sso.tested_at', { when: formatDateTime(config.tested_at) })}
          </Text>
        )}
        <Group gap="sm" wrap="wrap">
          <Button
            onClick={() => void test()}
            loading={testing}
            disabled={!config.has_metadata || config.is_active}
            data-testid="sso-test"
          >
            {t('sso.test')}
          </Button>
          {config.is_active ? (
            <Button
              variant="default"
              onClick={() =>
                mutation.mutate(
                  { kind: 'deactivate', config_uuid: config.config_uuid },
                  { onSuccess: () => done('sso.deactivated') },
                )
              }
              data-testid="sso-deactivate"
            >
              {t('sso.deactivate')}
            </Button>
          ) : (
            <Button
              variant="default"
              disabled={!config.tested_at}
              onClick={() =>
                mutation.mutate({ kind: 'activate', config_uuid: config.config_uuid }, { onSuccess: () => done('sso.activated') })
              }
              data-testid="sso-activate"
            >
              {t('sso.activate')}
            </Button>
          )}
          <Button variant="default" color="red" onClick={() => setConfirmDelete(true)} data-testid="sso-delete">
            {t('sso.delete')}
          </Button>
        </Group>
        {testId && <TestResult id={testId} />}
      </Stack>
      {confirmDelete && (
        <ConfirmDialog
          title={t('sso.delete_title')}
          action={t('sso.delete')}
          pending={mutation.isPending}
          error={mutation.error}
          onConfirm={() =>
            mutation.mutate({ kind: 'delete', config_uuid: config.config_uuid }, { onSuccess: () => setConfirmDelete(false) })
          }
          onClose={() => setConfirmDelete(false)}
          testId="sso-delete-dialog"
          confirmTestId="sso-delete-confirm"
        >
          {t('sso.delete_body', { name: config.config_name })}
        </ConfirmDialog>
      )}
    </Card>
  );
}

/** What the identity provider sent and which checks passed (beyond the spec, issue 13). */
function TestResult({ id }: { id: string }) {
  const { t } = useTranslation();
  const result = useSsoTestQuery(id);
  if (result.isPending) return <Skeleton h={80} />;
  if (result.isError) return <DataFetchError onRetry={() => void result.refetch()} />;
  const r: SsoTestResult = result.data;
  const a = r.attributes;
  return (
    <Stack gap="sm" data-testid="sso-test-result">
      <Alert color={r.status === 'success' ? 'green' : 'red'} data-testid="sso-test-outcome">
        {r.status === 'success'
          ? t('sso.test_passed')
          : `${t('sso.test_failed')} ${t('sso.error_code', { code: r.response_key ?? '' })}`}
      </Alert>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Stack gap={4}>
          <Text fw={600} size="sm">
            {t('sso.checks')}
          </Text>
          {r.checks.map((c) => (
            <Group key={c.name} gap="xs" wrap="nowrap" data-testid={`sso-check-${c.name}`}>
              <Badge color={c.passed ? 'green' : 'red'} variant="light" miw={70}>
                {t(c.passed ? 'sso.check_passed' : 'sso.check_failed')}
              </Badge>
              <Text size="sm">{t(`sso.check.${c.name}`)}</Text>
            </Group>
          ))}
        </Stack>
        {a && (
          <Stack gap={4}>
            <Text fw={600} size="sm">
              {t('sso.attributes')}
            </Text>
            <Table withRowBorders={false} verticalSpacing={2} data-testid="sso-attributes">
              <Table.Tbody>
                {(
                  [
                    ['sso.attr.name_id', a.name_id],
                    ['sso.attr.email', a.email],
                    ['sso.attr.name', a.name],
                    ['sso.attr.groups', a.groups.join(', ')],
                    ...Object.entries(a.other).map(([k, v]) => [k, v.join(', ')]),
                  ] as [string, string | null][]
                ).map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Td c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {k.startsWith('sso.') ? t(k) : k}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{v || '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {r.maps_to_admin !== null && (
              <Text size="sm" c={r.maps_to_admin ? 'green' : 'orange'}>
                {t(r.maps_to_admin ? 'sso.maps_to_admin' : 'sso.maps_to_no_admin')}
              </Text>
            )}
          </Stack>
        )}
      </SimpleGrid>
    </Stack>
  );
}

function EnforcementCard() {
  const { t } = useTranslation();
  const policy = useSsoPolicyQuery();
  const mutation = useSsoMutation();
  if (policy.isError) return <DataFetchError onRetry={() => void policy.refetch()} />;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="sso-enforcement">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('sso.enforce_title')}
        </Title>
        {mutation.isError && (
          <Alert color="red" data-testid="sso-policy-error">
            {t(errorMessage(mutation.error), errorValues(mutation.error))}
          </Alert>
        )}
        {policy.isPending ? (
          <Skeleton h={100} />
        ) : (
          <>
            <Switch
              label={t('sso.enforce')}
              description={t('sso.enforce_hint')}
              checked={policy.data.enforce_sso}
              onChange={(e) =>
                mutation.mutate(
                  { kind: 'enforce', enforce_sso: e.currentTarget.checked },
                  { onSuccess: () => notifications.show({ color: 'teal', message: t('successfully updated') }) },
                )
              }
              data-testid="sso-enforce"
            />
            <Text fw={600} size="sm" mt="sm">
              {t('sso.excluded_title')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('sso.excluded_hint')}
            </Text>
            <Stack gap={6}>
              {policy.data.admins.map((admin) => (
                <Switch
                  key={admin.email}
                  label={`${admin.name || admin.email} (${admin.email})`}
                  checked={admin.excluded}
                  onChange={(e) =>
                    mutation.mutate(
                      e.currentTarget.checked
                        ? { kind: 'exclude', add: [admin.email], remove: [] }
                        : { kind: 'exclude', add: [], remove: [admin.email] },
                    )
                  }
                  data-testid={`sso-exclude-${admin.email}`}
                />
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Card>
  );
}
