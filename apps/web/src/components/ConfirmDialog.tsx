import { Button, Group, type MantineColor, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.ts';
import { ModalError } from './ModalError.tsx';

/** One "are you sure?" dialog, so every action asks, waits and fails in place the same way. */
export function ConfirmDialog({
  title,
  children,
  action,
  pending,
  error,
  onConfirm,
  onClose,
  color = 'red',
  testId = 'confirm-dialog',
  confirmTestId = 'confirm-action',
  confirmDisabled,
}: {
  title: string;
  /** The question: a string is set as body text, a node as it is. */
  children: ReactNode;
  /** The confirm button's label. */
  action: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  /** null: the theme's primary colour, for an action that destroys nothing. */
  color?: MantineColor | null;
  testId?: string;
  confirmTestId?: string;
  confirmDisabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Stack gap="md" data-testid={testId}>
        <ModalError error={error} />
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color={color ?? undefined}
            loading={pending}
            disabled={confirmDisabled}
            onClick={onConfirm}
            data-testid={confirmTestId}
          >
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
