import { SAVED_SEARCH_NAME_MAX } from '@latchkey/contracts/client';
import { Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ModalError } from '../../../components/ModalError.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';

/**
 * Names a saved search: a new one (with who sees it: only its author, or the team's admins who read
 * the log) or, given `renaming`, a new name for one kept (its visibility stays).
 */
export function SaveSearchDialog({
  renaming,
  pending,
  error,
  onSave,
  onClose,
}: {
  renaming?: { name: string } | undefined;
  pending: boolean;
  error: unknown;
  onSave: (v: { name: string; shared: boolean }) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(renaming?.name ?? '');
  const [shared, setShared] = useState(false);
  const [blank, setBlank] = useState(false);
  const submit = () => {
    if (!name.trim()) return setBlank(true);
    onSave({ name: name.trim(), shared });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(renaming ? 'eventlogs.saved.rename_title' : 'eventlogs.saved.dialog_title')}
      centered
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md" data-testid="save-search-dialog">
          <ModalError error={error} />
          <TextInput
            label={t('eventlogs.saved.name')}
            placeholder={t('eventlogs.saved.name_placeholder')}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setBlank(false);
            }}
            maxLength={SAVED_SEARCH_NAME_MAX}
            error={blank ? t('eventlogs.saved.name_required') : undefined}
            data-autofocus
            required
            data-testid="save-search-name"
          />
          {renaming ? null : (
            <Radio.Group
              label={t('eventlogs.saved.visibility')}
              value={shared ? 'shared' : 'private'}
              onChange={(v) => setShared(v === 'shared')}
            >
              <Stack gap="xs" mt={6}>
                <Radio value="private" label={t('eventlogs.saved.private')} data-testid="save-search-private" />
                <Radio value="shared" label={t('eventlogs.saved.shared')} data-testid="save-search-shared" />
              </Stack>
            </Radio.Group>
          )}
          {shared && !renaming ? (
            <Text size="xs" c="dimmed">
              {t('eventlogs.saved.shared_hint')}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending} data-testid="save-search-submit">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
