import { SIGN_MODES, SSO_METADATA_URL_MAX, type SsoConfig } from '@latchkey/contracts/client';
import { Alert, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { errorMessage, errorValues } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { limitProps, trimPasted } from '../../../lib/limits.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useSsoMutation } from '../api.ts';
import { MetadataDrop } from '../MetadataDrop.tsx';
import { SetupSteps } from '../SetupSteps.tsx';
import { TestResult } from './TestResult.tsx';
import { useSsoTest } from './use-sso-test.ts';

const STATUS_COLOR: Record<SsoConfig['status'], string> = {
  awaiting_metadata: 'gray',
  awaiting_test: 'yellow',
  tested: 'blue',
  active: 'green',
};

/** One connector: its status, the IdP metadata, the sign mode, the test sign-in, activation and deletion. */
export function ConnectorCard({ config }: { config: SsoConfig }) {
  const { t } = useTranslation();
  const mutation = useSsoMutation();
  const { test, testId, testError, testing } = useSsoTest(config.config_uuid, mutation.reset);
  const [url, setUrl] = useState(config.metadata_url ?? '');
  const [confirmDelete, setConfirmDelete] = useState(false);

  const done = (key: string) => notifications.show({ color: 'teal', message: t(key) });
  const urlProblem = url && !/^https?:\/\/\S+$/i.test(url) ? t('invalid url') : undefined;

  const upload = (xml: string) =>
    mutation.mutate(
      { kind: 'update', input: { config_uuid: config.config_uuid, metadata_xml: xml } },
      { onSuccess: () => done('sso.metadata_saved') },
    );

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
          <Button variant="light" color="red" onClick={() => setConfirmDelete(true)} data-testid="sso-delete">
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
