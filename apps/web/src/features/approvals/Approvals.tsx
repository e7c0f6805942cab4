import { accessDenial, RULES } from '@latchkey/contracts/client';
import { Badge, Tabs } from '@mantine/core';
import { useLocation, useSearch } from 'wouter';
import { useConsoleContext } from '../../lib/console-context.ts';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { ApprovalPolicyCard } from './ApprovalPolicyCard.tsx';
import type { ApprovalView } from './api.ts';
import { useWaitingCountQuery } from './api.ts';
import { RequestList } from './RequestList.tsx';

const TABS = { waiting: 'pending_for_me', mine: 'mine', history: 'all' } as const satisfies Record<string, ApprovalView>;
type Tab = keyof typeof TABS | 'policy';

/**
 * /settings/approvals: the requests waiting for this admin, the admin's own, every request (the
 * history), and, for super admins, the team's approval policy. The tab is in the address, so the
 * top bar's count and the notices link straight to theirs.
 */
export function Approvals() {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const setsPolicy = accessDenial(RULES.superAdminAnyTeam, ctx) === null;
  const asked = new URLSearchParams(search).get('tab');
  const tab: Tab = asked === 'mine' || asked === 'history' || (asked === 'policy' && setsPolicy) ? asked : 'waiting';
  const waiting = useWaitingCountQuery(true).data ?? 0;
  return (
    <Tabs
      value={tab}
      onChange={(next) => navigate(`${location}?tab=${next ?? 'waiting'}`, { replace: true })}
      keepMounted={false}
    >
      <Tabs.List mb="md" data-testid="approvals-tabs">
        <Tabs.Tab
          value="waiting"
          rightSection={
            waiting > 0 && (
              <Badge size="sm" variant="filled" circle data-testid="approvals-waiting-count">
                {formatNumber(waiting)}
              </Badge>
            )
          }
        >
          {t('approvals.tab.waiting')}
        </Tabs.Tab>
        <Tabs.Tab value="mine">{t('approvals.tab.mine')}</Tabs.Tab>
        <Tabs.Tab value="history">{t('approvals.tab.history')}</Tabs.Tab>
        {setsPolicy && <Tabs.Tab value="policy">{t('approvals.tab.policy')}</Tabs.Tab>}
      </Tabs.List>
      {(['waiting', 'mine', 'history'] as const).map((view) => (
        <Tabs.Panel key={view} value={view}>
          <RequestList view={TABS[view]} emptyKey={`approvals.empty.${view}`} />
        </Tabs.Panel>
      ))}
      {setsPolicy && (
        <Tabs.Panel value="policy">
          <ApprovalPolicyCard />
        </Tabs.Panel>
      )}
    </Tabs>
  );
}
