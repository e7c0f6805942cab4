import { Alert, Badge, Button, Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { actionLabel } from './actions.ts';
import type { ApprovalRequest } from './api.ts';
import { type Decision, DecisionDialog } from './DecisionDialog.tsx';
import { LockOutWarning } from './LockOutWarning.tsx';
import { RequestChanges } from './RequestChanges.tsx';

const STATUS_COLOR = {
  pending: 'yellow',
  approved: 'blue',
  applied: 'green',
  rejected: 'red',
  expired: 'gray',
  withdrawn: 'gray',
  failed: 'red',
} as const;

/**
 * One request: the action in words, who asked and when, until when it may be approved, what it
 * would change, who approved or rejected it with their comments, and what this admin may do.
 */
export function RequestCard({ request: r }: { request: ApprovalRequest }) {
  const { t } = useTranslation();
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const approvals = r.approvals.filter((a) => a.decision === 'approved').length;
  // M counts the requester: the others needed are one fewer.
  const needed = Math.max(1, r.approvers_required - 1);
  const who = r.requester.name || r.requester.email;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="approval-request" data-id={r.id} data-status={r.status}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Stack gap={2} miw={0}>
            <Title order={3} size="h5" data-testid="approval-action">
              {t(actionLabel(r.action))}
            </Title>
            <Text size="sm" c="dimmed">
              {t('approvals.requested_by', { who, when: formatDateTime(r.created_at) })}
            </Text>
            <Text size="sm" c="dimmed">
              {r.status === 'pending'
                ? t('approvals.expires', { when: formatDateTime(r.expires_at) })
                : r.closed_at && t('approvals.closed', { when: formatDateTime(r.closed_at) })}
            </Text>
          </Stack>
          <Badge color={STATUS_COLOR[r.status]} variant="light" style={{ flexShrink: 0 }} data-testid="approval-status">
            {t(`approvals.status.${r.status}`)}
          </Badge>
        </Group>
        {r.status === 'pending' && r.locked_out && (
          // The request counts the people besides its requester; the warning counts everyone who could agree.
          <LockOutWarning eligible={r.eligible_approvers + 1} required={r.approvers_required} />
        )}
        <RequestChanges request={r} />
        <Divider />
        <Stack gap={6} data-testid="approval-decisions">
          <Text size="sm" fw={600}>
            {t('approvals.progress', { n: formatNumber(approvals), needed: formatNumber(needed) })}
          </Text>
          {r.approvals.map((a) => (
            <Stack key={`${a.email} ${a.at}`} gap={0} data-testid="approval-decision">
              <Group gap={6}>
                <Badge size="xs" variant="light" color={a.decision === 'approved' ? 'green' : 'red'}>
                  {t(`approvals.decision.${a.decision}`)}
                </Badge>
                <Text size="sm">
                  {t('approvals.decided_by', {
                    who: a.operator ? t('approvals.operator') : a.name || a.email,
                    when: formatDateTime(a.at),
                  })}
                </Text>
              </Group>
              {a.comment && (
                <Text size="sm" c="dimmed" fs="italic" pl="xs" data-testid="approval-comment">
                  “{a.comment}”
                </Text>
              )}
            </Stack>
          ))}
        </Stack>
        {r.closed_reason && (
          <Alert color="gray" variant="light" data-testid="approval-closed-reason">
            {r.closed_reason}
          </Alert>
        )}
        {(r.can_decide || r.can_withdraw) && (
          <Group justify="flex-end" gap="sm">
            {r.can_withdraw && (
              <Button variant="default" onClick={() => setDeciding('withdraw')} data-testid="approval-withdraw">
                {t('approvals.withdraw')}
              </Button>
            )}
            {r.can_decide && (
              <>
                <Button variant="default" color="red" onClick={() => setDeciding('reject')} data-testid="approval-reject">
                  {t('approvals.reject')}
                </Button>
                <Button onClick={() => setDeciding('approve')} data-testid="approval-approve">
                  {t('approvals.approve')}
                </Button>
              </>
            )}
          </Group>
        )}
      </Stack>
      {deciding && <DecisionDialog request={r} decision={deciding} onClose={() => setDeciding(null)} />}
    </Card>
  );
}
