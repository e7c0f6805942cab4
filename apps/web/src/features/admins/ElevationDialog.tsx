import { ELEVATION_DURATIONS, ELEVATION_REASON_MAX, type Scope } from '@latchkey/contracts/client';
import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ModalError } from '../../components/ModalError.tsx';
import { fieldProps } from '../../lib/form.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useRequestElevationMutation } from './api.ts';

interface ElevationDialogProps {
  eligible: Scope[];
  /** The scopes the team's policy lets the admin take without an approver. */
  selfScopes: Scope[];
  approversAvailable: boolean;
  onClose: () => void;
}

/** How a duration reads: minutes below an hour, else hours. */
export const durationKey = (minutes: number) =>
  minutes < 60 ? { key: 'admins.elevation.minutes', n: minutes } : { key: 'admins.elevation.hours', n: minutes / 60 };

/** Asks for a scope the admin is eligible for, for a while, with a reason (just-in-time rights). */
export function ElevationDialog({ eligible, selfScopes, approversAvailable, onClose }: ElevationDialogProps) {
  const { t } = useTranslation();
  const request = useRequestElevationMutation();
  const form = useForm({
    initialValues: { scope: eligible[0] ?? 'super_admin', minutes: '60', reason: '' },
    validate: { reason: (v) => (v.trim().length < 3 ? 'admins.elevation.reason_required' : null) },
    validateInputOnBlur: true,
  });
  const self = selfScopes.includes(form.values.scope as Scope);
  const submit = form.onSubmit((values) =>
    request.mutate(
      { scope: values.scope as Scope, minutes: Number(values.minutes), reason: values.reason.trim() },
      {
        onSuccess: (reply) => {
          const key = reply.code === 'approval_required' ? 'admins.elevation.requested' : 'admins.elevation.granted';
          notifications.show({ color: 'teal', message: t(key, { scope: t(`admins.scope.${values.scope}`) }) });
          onClose();
        },
      },
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t('admins.elevation.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md" data-testid="elevation-dialog">
          <ModalError error={request.error} />
          <Select
            label={t('admins.elevation.scope')}
            data={eligible.map((s) => ({ value: s, label: t(`admins.scope.${s}`) }))}
            allowDeselect={false}
            {...form.getInputProps('scope')}
            data-testid="elevation-scope"
          />
          <Select
            label={t('admins.elevation.duration')}
            data={ELEVATION_DURATIONS.map((m) => {
              const d = durationKey(m);
              return { value: String(m), label: t(d.key, { n: d.n }) };
            })}
            allowDeselect={false}
            {...form.getInputProps('minutes')}
            data-testid="elevation-duration"
          />
          <Textarea
            label={t('admins.elevation.reason')}
            description={t('admins.elevation.reason_hint')}
            maxLength={ELEVATION_REASON_MAX}
            autosize
            minRows={2}
            {...fieldProps(form, 'reason', t)}
            data-autofocus
            data-testid="elevation-reason"
          />
          {self ? (
            <Text size="sm" c="dimmed">
              {t('admins.elevation.self_note')}
            </Text>
          ) : approversAvailable ? (
            <Text size="sm" c="dimmed">
              {t('admins.elevation.approval_note')}
            </Text>
          ) : (
            <Alert color="yellow" variant="light" data-testid="elevation-no-approver">
              {t('admins.elevation.no_approver')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={request.isPending} data-testid="elevation-submit">
              {t(self ? 'admins.elevation.take' : 'admins.elevation.request')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
