import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ModalError } from '../../components/ModalError.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { type Admin, useDecideElevationMutation } from './api.ts';
import { durationKey } from './ElevationDialog.tsx';

export interface Deciding {
  admin: Admin;
  elevation: NonNullable<Admin['elevations']>[number];
}

/** Another super admin approves or rejects a request for elevation, with a comment (features/approvals decides). */
export function DecideElevation({ admin, elevation, onClose }: Deciding & { onClose: () => void }) {
  const { t } = useTranslation();
  const decide = useDecideElevationMutation();
  const [comment, setComment] = useState('');
  const d = durationKey(elevation.minutes);
  const scope = t(`admins.scope.${elevation.scope}`);
  const send = (decision: 'approve' | 'reject') =>
    decide.mutate(
      { id: elevation.request_id ?? '', decision, comment: comment.trim() },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            message: t(decision === 'approve' ? 'admins.jit.approved' : 'admins.jit.rejected', { email: admin.email, scope }),
          });
          onClose();
        },
      },
    );
  return (
    <Modal opened onClose={onClose} title={t('admins.jit.decide_title', { scope })} centered>
      <Stack gap="md" data-testid="elevation-decide-dialog">
        <ModalError error={decide.error} />
        <Text size="sm">{t('admins.jit.decide_body', { email: admin.email, scope, duration: t(d.key, { n: d.n }) })}</Text>
        <Text size="sm" c="dimmed" data-testid="elevation-decide-reason">
          {t('admins.jit.decide_reason', { reason: elevation.reason })}
        </Text>
        <Textarea
          label={t('admins.jit.comment')}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
          data-testid="elevation-decide-comment"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red.9"
            variant="light"
            loading={decide.isPending}
            onClick={() => send('reject')}
            data-testid="elevation-reject"
          >
            {t('admins.jit.reject')}
          </Button>
          <Button loading={decide.isPending} onClick={() => send('approve')} data-testid="elevation-approve">
            {t('admins.jit.approve')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
