import { type AccessContext, accessDenial } from '@latchkey/contracts/client';
import { Badge } from '@mantine/core';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useWaitingCountQuery } from './api.ts';
import { APPROVALS_RULE } from './rule.ts';

/**
 * The top bar's count of requests this admin may approve now, on every screen, linking to them
 * (UI.md: an approval waiting shows in the top bar). Nothing when none waits.
 */
export function ApprovalsBadge({ ctx }: { ctx: AccessContext }) {
  const { t } = useTranslation();
  const count = useWaitingCountQuery(accessDenial(APPROVALS_RULE, ctx) === null);
  const n = count.data ?? 0;
  if (n === 0) return null;
  return (
    <Badge
      component={Link}
      href="/settings/approvals?tab=waiting"
      color="blue"
      variant="light"
      size="lg"
      radius="sm"
      leftSection={<Icon name="clock" size={14} />}
      className="billing-badge"
      title={t('approvals.topbar', { n: formatNumber(n) })}
      data-testid="topbar-approvals"
    >
      {formatNumber(n)}
      <span className="billing-badge-text"> {t('approvals.topbar.short')}</span>
    </Badge>
  );
}
