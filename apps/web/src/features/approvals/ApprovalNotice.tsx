import { accessDenial } from '@latchkey/contracts/client';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { APPROVAL_WAITING } from '../../lib/api-error.ts';
import { forgetHeldChange, useHeldChanges } from '../../lib/approval-notices.ts';
import { useConsoleContext } from '../../lib/console-context.ts';
import { formatMoment, isolate } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { isGatedScreen, madeOn } from './actions.ts';
import { useMyRecentRequestsQuery } from './api.ts';
import { APPROVALS_RULE } from './rule.ts';

/**
 * On the screen where a change was asked for: "Waiting for approval by another super admin —
 * requested 10:42", for each of the admin's pending requests made here (this tab's at once, the
 * server's list for those made earlier or elsewhere). Nothing changed until someone approves.
 */
export function ApprovalNotice({ path }: { path: string }) {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  const here = `/${path}`;
  // Only the screens where a gated action is made ask which of the admin's requests wait.
  const gatedScreen = isGatedScreen(here);
  const mayAsk = accessDenial(APPROVALS_RULE, ctx) === null;
  const held = useHeldChanges();
  const mine = useMyRecentRequestsQuery(gatedScreen && mayAsk);
  const heldHere = held.filter((h) => h.path === here || h.path.startsWith(`${here}/`));
  const { refetch } = mine;
  // A change just held here: read the admin's requests again, so the notice outlives a reload.
  useEffect(() => {
    if (heldHere.length > 0) void refetch();
  }, [heldHere.length, refetch]);
  // A held change the server no longer lists as pending was decided meanwhile.
  useEffect(() => {
    for (const h of held) {
      const known = mine.data?.find((r) => r.id === h.requestId);
      if (known && known.status !== 'pending') forgetHeldChange(h.requestId);
    }
  }, [held, mine.data]);

  const waiting = new Map<string, string>();
  for (const r of mine.data ?? []) if (r.status === 'pending' && madeOn(r.action, here)) waiting.set(r.id, r.created_at);
  for (const h of heldHere)
    if (!mine.data?.some((r) => r.id === h.requestId && r.status !== 'pending'))
      waiting.set(h.requestId, waiting.get(h.requestId) ?? h.requestedAt);
  if (waiting.size === 0) return null;
  return (
    <Alert color="blue" variant="light" mb="md" icon={<Icon name="clock" />} data-testid="approval-notice" role="status">
      <Stack gap={4}>
        {[...waiting].map(([id, at]) => (
          <Text size="sm" key={id} data-testid="approval-notice-line">
            {t(APPROVAL_WAITING, { time: isolate(formatMoment(at)) })}
          </Text>
        ))}
        <Anchor component={Link} href="/settings/approvals?tab=mine" size="sm" w="fit-content" data-testid="approval-notice-link">
          {t('approvals.notice.open')}
        </Anchor>
      </Stack>
    </Alert>
  );
}
