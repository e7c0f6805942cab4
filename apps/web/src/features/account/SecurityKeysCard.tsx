import { SECURITY_KEY_NAME_MAX, type SecurityKey } from '@latchkey/contracts/client';
import { Alert, Button, Group, Modal, PasswordInput, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ModalError } from '../../components/ModalError.tsx';
import { fieldProps } from '../../lib/form.ts';
import { formatDate } from '../../lib/format.ts';
import { limitProps, PASSWORD_MAX } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { Section, useSubmit } from './account-ui.tsx';
import { addSecurityKey, removeSecurityKey, renameSecurityKey, useAccountRefresh, useSecurityKeysQuery } from './api.ts';

type Dialog = { kind: 'rename' | 'remove'; key: SecurityKey } | null;

/** Security keys (WebAuthn): add one with the browser, then name or remove each (spec §7). */
export function SecurityKeysCard({ canAdd, hasPassword }: { canAdd: boolean; hasPassword: boolean }) {
  const { t } = useTranslation();
  const refreshAccount = useAccountRefresh();
  const keys = useSecurityKeysQuery();
  const [dialog, setDialog] = useState<Dialog>(null);
  const { busy, run, alert, setError } = useSubmit();
  const list = keys.data?.keys;

  async function add() {
    const done = await run(addSecurityKey);
    if (done === null) setError('account.security_key_failed');
    else if (done) {
      notifications.show({ color: 'green', message: t('account.security_key_added'), autoClose: 5000 });
      await refreshAccount();
    }
  }

  return (
    <Section title="account.security_keys" testId="security-keys">
      <Text size="sm">{t('account.security_keys_info')}</Text>
      {alert}
      {keys.isError && (
        <Alert color="red" variant="light" role="alert">
          {t('data_fetch_error')}{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => void keys.refetch()}>
            {t('common.retry')}
          </Button>
        </Alert>
      )}
      {!list && !keys.isError && (
        <Stack gap="xs" aria-busy="true">
          <Skeleton h={18} w="50%" />
          <Skeleton h={44} />
        </Stack>
      )}
      {list && (
        <>
          <Text size="sm" data-testid="security-keys-count">
            {t('account.security_keys_count', { count: list.length })}
          </Text>
          {list.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="security-keys-empty">
              {t('account.security_keys_empty')}
            </Text>
          ) : (
            <Stack gap={0} data-testid="security-key-list">
              {list.map((key) => (
                <KeyRow
                  key={key.id}
                  securityKey={key}
                  onRename={() => setDialog({ kind: 'rename', key })}
                  onRemove={() => setDialog({ kind: 'remove', key })}
                />
              ))}
            </Stack>
          )}
        </>
      )}
      {!canAdd && (
        <Text size="sm" c="dimmed">
          {t('account.authenticator_needs_password')}
        </Text>
      )}
      <Group>
        <Button onClick={() => void add()} loading={busy} disabled={!canAdd}>
          {t('account.security_key_add')}
        </Button>
      </Group>
      {dialog?.kind === 'rename' && <RenameDialog securityKey={dialog.key} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'remove' && (
        <RemoveDialog securityKey={dialog.key} hasPassword={hasPassword} onClose={() => setDialog(null)} />
      )}
    </Section>
  );
}

function KeyRow({
  securityKey: key,
  onRename,
  onRemove,
}: {
  securityKey: SecurityKey;
  onRename: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const name = key.name || t('account.security_key_unnamed');
  return (
    <Group
      justify="space-between"
      wrap="wrap"
      gap="xs"
      py="sm"
      style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
      data-testid="security-key"
    >
      <Stack gap={2} style={{ minWidth: 0, flex: '1 1 12rem' }}>
        <Text size="sm" fw={500} truncate="end" data-testid="security-key-name">
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          {t('account.security_key_added_on', { date: formatDate(key.created_at) })}
          {' · '}
          {key.last_used_at
            ? t('account.security_key_last_used', { date: formatDate(key.last_used_at) })
            : t('account.security_key_never_used')}
        </Text>
      </Stack>
      <Group gap={4} wrap="nowrap">
        <Button variant="subtle" size="compact-sm" onClick={onRename} aria-label={`${t('account.security_key_rename')}: ${name}`}>
          {t('account.security_key_rename')}
        </Button>
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          onClick={onRemove}
          aria-label={`${t('account.security_key_remove')}: ${name}`}
        >
          {t('account.security_key_remove')}
        </Button>
      </Group>
    </Group>
  );
}

function useKeyMutation<T>(fn: (input: T) => Promise<unknown>, doneKey: string, onClose: () => void) {
  const { t } = useTranslation();
  const refreshAccount = useAccountRefresh();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t(doneKey), autoClose: 5000 });
      await refreshAccount();
      onClose();
    },
  });
}

function RenameDialog({ securityKey: key, onClose }: { securityKey: SecurityKey; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { name: key.name },
    validate: { name: (value) => (value.trim() ? null : 'this field is required') },
  });
  const rename = useKeyMutation((value: string) => renameSecurityKey(key.id, value), 'account.security_key_renamed', onClose);
  const submit = form.onSubmit(({ name }) => rename.mutate(name.trim()));
  return (
    <Modal opened onClose={onClose} title={t('account.security_key_rename_title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <ModalError error={rename.error} />
          <TextInput
            label={t('account.security_key_name')}
            maxLength={SECURITY_KEY_NAME_MAX}
            data-autofocus
            {...fieldProps(form, 'name', t)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={rename.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RemoveDialog({
  securityKey: key,
  hasPassword,
  onClose,
}: {
  securityKey: SecurityKey;
  hasPassword: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (value) => (value ? null : 'please enter your password') },
  });
  const remove = useKeyMutation((value: string) => removeSecurityKey(key.id, value), 'account.security_key_removed', onClose);
  const submit = form.onSubmit(({ password }) => remove.mutate(password));
  return (
    <Modal opened onClose={onClose} title={t('account.security_key_remove_title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <ModalError error={remove.error} />
          <Text size="sm">{t('account.security_key_remove_body', { name: key.name || t('account.security_key_unnamed') })}</Text>
          {hasPassword && (
            <PasswordInput
              {...limitProps(PASSWORD_MAX)}
              label={t('account.current_password')}
              autoComplete="current-password"
              data-autofocus
              {...fieldProps(form, 'password', t)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" loading={remove.isPending} disabled={!hasPassword}>
              {t('account.security_key_remove')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
