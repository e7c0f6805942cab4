import {
  MAX_SCIM_CONNECTOR_NAME,
  SCIM_IDPS,
  SCIM_MAX_OVERLAP_HOURS,
  type ScimConnector,
  type ScimIdp,
} from '@latchkey/contracts/client';
import { Button, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ModalError } from '../../../components/ModalError.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useConnectorMutation } from '../api.ts';

export function CreateDialog({
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
              {t('scim.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function RotateDialog({
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

export function RevokeDialog({ connector, onClose }: { connector: ScimConnector; onClose: () => void }) {
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
