import { accessDenial, RULES } from '@latchkey/contracts/client';
import { Badge, Tabs } from '@mantine/core';
import { useEffect, useState } from 'react';
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
 * history), and, for super admins, the team's approval policy. A link may name the tab
 * (`?tab=mine`), so the top bar's count and the notices open theirs.
 */
export function Approvals() {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const setsPolicy = accessDenial(RULES.superAdminAnyTeam, ctx) === null;
  const tabOf = (value: string | null): Tab | null =>
    value === 'waiting' || value === 'mine' || value === 'history' || (value === 'policy' && setsPolicy) ? value : null;
  const [tab, setTab] = useState<Tab>(() => tabOf(new URLSearchParams(search).get('tab')) ?? 'waiting');
  // A link's tab (the top bar's count, a notice) is taken, then the address loses it so other pages do not inherit it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read on each new address only
  useEffect(() => {
    if (!search) return;
    const asked = tabOf(new URLSearchParams(search).get('tab'));
    if (asked) setTab(asked);
    navigate(`${location}?`, { replace: true });
  }, [search]);
  const waiting = useWaitingCountQuery(true).data ?? 0;
  return (
    <Tabs value={tab} onChange={(next) => setTab(tabOf(next) ?? 'waiting')} keepMounted={false}>
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
