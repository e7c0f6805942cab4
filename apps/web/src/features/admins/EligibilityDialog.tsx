import { SCOPES, type Scope } from '@latchkey/contracts/client';
import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ModalError } from '../../components/ModalError.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { type Admin, useEligibilityMutation } from './api.ts';

type Hold = 'none' | 'standing' | 'eligible';

/** Per scope: not held, held standing, or held just in time (the admin elevates to it). */
export function EligibilityDialog({ admin, onClose }: { admin: Admin; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useEligibilityMutation();
  const [holds, setHolds] = useState<Record<Scope, Hold>>(
    () =>
      Object.fromEntries(
        SCOPES.map((s) => [s, admin.scopes.includes(s) ? 'standing' : admin.eligible_scopes?.includes(s) ? 'eligible' : 'none']),
      ) as Record<Scope, Hold>,
  );
  const of = (hold: Hold) => SCOPES.filter((s) => holds[s] === hold);
  const submit = () =>
    save.mutate(
      { email: admin.email, scopes: of('standing'), eligible_scopes: of('eligible') },
      {
        onSuccess: (reply) => {
          const key = reply.code === 'approval_required' ? 'admins.jit.eligibility_requested' : 'admins.jit.eligibility_saved';
          notifications.show({ color: 'teal', message: t(key, { email: admin.email }) });
          onClose();
        },
      },
    );
  return (
    <Modal opened onClose={onClose} title={t('admins.jit.eligibility_title', { email: admin.email })} centered size="lg">
      <Stack gap="md" data-testid="eligibility-dialog">
        <ModalError error={save.error} />
        <Text size="sm" c="dimmed">
          {t('admins.jit.eligibility_hint')}
        </Text>
        {SCOPES.map((s) => (
          <Group key={s} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" fw={500}>
              {t(`admins.scope.${s}`)}
            </Text>
            <SegmentedControl
              size="xs"
              value={holds[s]}
              onChange={(v) => setHolds({ ...holds, [s]: v as Hold })}
              data={[
                { value: 'none', label: t('admins.jit.hold.none') },
                { value: 'standing', label: t('admins.jit.hold.standing') },
                { value: 'eligible', label: t('admins.jit.hold.eligible') },
              ]}
              data-testid={`eligibility-${s}`}
            />
          </Group>
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} loading={save.isPending} disabled={of('standing').length === 0} data-testid="eligibility-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
