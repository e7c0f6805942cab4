import { canAccess, RULES } from '@latchkey/contracts/client';
import { Alert, Button, Group, Text } from '@mantine/core';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { useConsoleContext } from '../../lib/console-context.ts';
import { formatDate, isolate } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useNotificationQuery } from './api.ts';
import { endedNextKey, graceKey, noticeAudience, noticeDay } from './rules.ts';

/**
 * A subscription in trouble, on the dashboard of every admin (UI.md: states that need the admin):
 * a grace period (an overdue invoice) or an ended subscription, with who can put it right.
 */
export function BillingNotice() {
  const { t } = useTranslation();
  const notice = useNotificationQuery().data;
  const { ctx, team } = useConsoleContext();
  if (notice?.code !== 'grace' && notice?.code !== 'ended') return null;
  const audience = noticeAudience(canAccess(RULES.billing, ctx), team.purchase_partner);
  const date = notice.days_left === null ? null : isolate(formatDate(noticeDay(notice.days_left)));
  const grace = notice.code === 'grace';
  const body = grace
    ? t(graceKey(audience), { date: date ?? '' })
    : `${date ? t('notice.ended.on', { date }) : t('notice.ended.undated')} ${t(endedNextKey(audience))}`;
  return (
    <Alert
      color={grace ? 'yellow' : 'red'}
      variant="light"
      icon={<Icon name="alert" />}
      title={t(grace ? 'notice.grace.title' : 'notice.ended.title')}
      data-testid="billing-notice"
      data-state={notice.code}
    >
      <Group justify="space-between" gap="sm" align="flex-end">
        <Text size="sm" maw={720} data-testid="billing-notice-body">
          {body}
        </Text>
        {audience === 'billing' && (
          <Button
            component={Link}
            href="/billing"
            size="xs"
            // A white button on the yellow notice: yellow under dark text is too faint to read.
            variant={grace ? 'default' : 'filled'}
            color={grace ? undefined : 'red'}
            data-testid="billing-notice-action"
          >
            {t(grace ? 'notice.grace.action' : 'notice.ended.action')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
