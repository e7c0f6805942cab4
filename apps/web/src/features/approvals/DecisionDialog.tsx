import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { ModalError } from '../../components/ModalError.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { actionLabel } from './actions.ts';
import { type ApprovalRequest, useDecideMutation, useWithdrawMutation } from './api.ts';

export type Decision = 'approve' | 'reject' | 'withdraw';

/** The server's own bound on a comment. */
const COMMENT_MAX = 1000;

/** Approve, reject or withdraw a request, with a comment the requester and the history keep. */
export function DecisionDialog({
  request,
  decision,
  onClose,
}: {
  request: ApprovalRequest;
  decision: Decision;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const decide = useDecideMutation();
  const withdraw = useWithdrawMutation();
  const mutation = decision === 'withdraw' ? withdraw : decide;
  const submit = () => {
    const input = { id: request.id, comment: comment.trim() };
    if (decision === 'withdraw') withdraw.mutate(input, { onSuccess: onClose });
    else decide.mutate({ ...input, decision }, { onSuccess: onClose });
  };
  return (
    <Modal opened onClose={onClose} title={t(`approvals.${decision}.title`)} centered>
      <Stack gap="md" data-testid="approval-dialog">
        <ModalError error={mutation.error} />
        <Text size="sm">{t(`approvals.${decision}.body`, { action: t(actionLabel(request.action)) })}</Text>
        <Textarea
          label={t('approvals.comment')}
          description={t(decision === 'reject' ? 'approvals.comment.reject' : 'approvals.comment.optional')}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          maxLength={COMMENT_MAX}
          autosize
          minRows={2}
          maxRows={6}
          data-autofocus
          data-testid="approval-comment-input"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color={decision === 'approve' ? undefined : 'red'}
            loading={mutation.isPending}
            onClick={submit}
            data-testid="approval-dialog-confirm"
          >
            {t(`approvals.${decision}`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
