import { type AccessContext, BILL_STATE_DISPLAY, type BillState, canAccess, RULES, type Team } from '@latchkey/contracts/client';
import { Badge } from '@mantine/core';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { useTranslation } from '../../lib/use-translation.ts';

/**
 * The top bar's word for a subscription in trouble (grace period, ended), on every screen; a link
 * to /billing for those who can open it. Phones show the icon with the same words for screen readers.
 */
export function BillingBadge({ team, ctx }: { team: Team; ctx: AccessContext }) {
  const { t } = useTranslation();
  const display = BILL_STATE_DISPLAY[team.bill_state as BillState];
  if (display !== 'grace' && display !== 'ended') return null;
  const label = t(display === 'grace' ? 'notice.grace.title' : 'notice.ended.title');
  const common = {
    color: display === 'grace' ? 'yellow' : 'red',
    variant: 'light',
    size: 'lg',
    radius: 'sm',
    leftSection: <Icon name="alert" size={14} />,
    className: 'billing-badge',
    'data-testid': 'topbar-billing',
    'data-state': display,
  } as const;
  const text = <span className="billing-badge-text">{label}</span>;
  return canAccess(RULES.billing, ctx) ? (
    <Badge component={Link} href="/billing" {...common}>
      {text}
    </Badge>
  ) : (
    <Badge {...common}>{text}</Badge>
  );
}
