import type { Credential } from '@latchkey/contracts/client';
import { Alert, Button, Code, CopyButton, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ModalError } from '../../components/ModalError.tsx';
import { logout } from '../../lib/auth.ts';
import { limitProps, SETUP_KEY_MAX, trimPasted, URL_MAX } from '../../lib/limits.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { teamKeys } from '../team/index.ts';
import { credentials, hubAddressProblem, integrationKeys } from './api.ts';
import { integrationErrorMessage } from './hub-features.ts';

function useRefreshIntegration() {
  const team = useTeamSlug();
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: integrationKeys.credentials(team) });
    await client.invalidateQueries({ queryKey: teamKeys.services(team) });
  };
}

/** A dialog with the spec's modal error (an alert above the content) and Cancel / action buttons. */
function Dialog(props: {
  title: string;
  error: unknown;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  pending: boolean;
  disabled?: boolean;
  danger?: boolean;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        <Stack gap="md" data-testid={props.testId}>
          <ModalError error={props.error} message={integrationErrorMessage} />
          {props.children}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color={props.danger ? 'red' : undefined} loading={props.pending} disabled={props.disabled}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Creates a credential: a name for one connection to a Hub, with nothing secret in it. */
export function AddCredentialDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshIntegration();
  const [name, setName] = useState('');
  const add = useMutation({ mutationFn: () => credentials.add(name), onSuccess: refresh });
  if (add.data) {
    return (
      <Modal opened onClose={onClose} title={t('integration.credentials.add')} centered>
        <Stack gap="md" data-testid="credential-added">
          <Alert color="blue">{t('integration.credentials.connection_only')}</Alert>
          <CopyField label={t('integration.credentials.id')} value={add.data.credential_id} />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('common.continue')}</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }
  return (
    <Dialog
      title={t('integration.credentials.add')}
      error={add.error}
      onClose={onClose}
      onSubmit={() => add.mutate()}
      submitLabel={t('integration.credentials.add')}
      pending={add.isPending}
      disabled={!name.trim()}
      testId="credential-add-dialog"
    >
      <TextInput
        label={t('integration.credentials.name')}
        value={name}
        maxLength={60}
        onChange={(e) => setName(e.currentTarget.value)}
        data-autofocus
      />
    </Dialog>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code style={{ wordBreak: 'break-all', flex: 1 }}>{value}</Code>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {t(copied ? 'integration.copied' : 'integration.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

export function RenameCredentialDialog({ credential, onClose }: { credential: Credential; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshIntegration();
  const [name, setName] = useState(credential.name);
  const rename = useMutation({
    mutationFn: () => credentials.rename(credential.credential_id, name),
    onSuccess: async () => {
      await refresh();
      notifications.show({ color: 'teal', message: t('integration.credentials.saved') });
      onClose();
    },
  });
  return (
    <Dialog
      title={t('integration.credentials.rename')}
      error={rename.error}
      onClose={onClose}
      onSubmit={() => rename.mutate()}
      submitLabel={t('common.save')}
      pending={rename.isPending}
      disabled={!name.trim() || name.trim() === credential.name}
      testId="credential-rename-dialog"
    >
      <TextInput
        label={t('integration.credentials.name')}
        value={name}
        maxLength={60}
        onChange={(e) => setName(e.currentTarget.value)}
        data-autofocus
      />
    </Dialog>
  );
}

export function DeleteCredentialDialog({ credential, onClose }: { credential: Credential; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshIntegration();
  const remove = useMutation({
    mutationFn: () => credentials.remove(credential.credential_id),
    onSuccess: async () => {
      await refresh();
      notifications.show({ color: 'teal', message: t('integration.credentials.deleted') });
      onClose();
    },
  });
  return (
    <Dialog
      title={t('integration.credentials.delete')}
      error={remove.error}
      onClose={onClose}
      onSubmit={() => remove.mutate()}
      submitLabel={t('integration.credentials.delete')}
      pending={remove.isPending}
      danger
      testId="credential-delete-dialog"
    >
      <Text size="sm">{t('integration.credentials.delete_confirm', { name: credential.name })}</Text>
    </Dialog>
  );
}

/**
 * Sets up a credential on the Hub at an address (spec §5: https): the server registers it there
 * itself, with the setup key the Hub's operator minted for this team when the Hub does not serve
 * it yet.
 */
export function SetupCredentialDialog({ credential, onClose }: { credential: Credential; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshIntegration();
  const [url, setUrl] = useState('');
  const [setupKey, setSetupKey] = useState('');
  const problem = url ? hubAddressProblem(url) : null;
  const setup = useMutation({
    mutationFn: () => credentials.setUp(credential.credential_id, url, setupKey),
    onSuccess: async () => {
      await refresh();
      logout('integration_successful');
    },
  });
  return (
    <Dialog
      title={t('integration.credentials.set_up')}
      error={setup.error}
      onClose={onClose}
      onSubmit={() => setup.mutate()}
      submitLabel={t('integration.credentials.set_up')}
      pending={setup.isPending}
      disabled={!url || problem !== null}
      testId="credential-setup-dialog"
    >
      <TextInput
        {...limitProps(URL_MAX, trimPasted)}
        label={t('integration.connection.url')}
        placeholder="https://hub.example.com"
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        error={problem ? t(problem) : undefined}
        data-autofocus
      />
      <PasswordInput
        {...limitProps(SETUP_KEY_MAX, trimPasted)}
        label={t('integration.connection.setup_key')}
        description={t('integration.connection.setup_key_optional_hint')}
        value={setupKey}
        onChange={(e) => setSetupKey(e.currentTarget.value)}
        data-testid="credential-setup-key"
      />
    </Dialog>
  );
}
