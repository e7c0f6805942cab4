import { IDP_TYPES, SSO_CONFIG_NAME_MAX, type SsoConfig } from '@latchkey/contracts/client';
import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage, errorValues } from '../../../lib/api-error.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useSsoMutation } from '../api.ts';

export function CreateDialog({ onClose }: { onClose: () => void }) {
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
