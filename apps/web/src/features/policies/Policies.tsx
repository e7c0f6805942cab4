import { canAccess, RULES } from '@latchkey/contracts/client';
import { Button, Tabs } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { PageAction } from '../../components/PageHeader.tsx';
import { useConsoleContext } from '../../lib/console-context.ts';
import { confirmLeave } from '../../lib/unsaved-changes.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { EffectivePolicyDialog } from './EffectivePolicyDialog.tsx';
import { GroupPolicyTab } from './GroupPolicyTab.tsx';
import { TeamPolicyTab } from './TeamPolicyTab.tsx';

type Tab = 'team' | 'groups';

/** /policies: the team policy and the group overrides, one tab each (spec §2 Policy). */
export function Policies() {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  const [tab, setTab] = useState<Tab>('team');
  const [effective, setEffective] = useState(false);
  return (
    <>
      <Tabs
        value={tab}
        // The other tab's editor replaces this one: unsaved edits are asked about first.
        onChange={(next) => next && void confirmLeave().then((leave) => leave && setTab(next as Tab))}
        keepMounted={false}
      >
        <PageAction>
          <Button variant="default" size="sm" leftSection={<Icon name="user" size={16} />} onClick={() => setEffective(true)}>
            {t('policy.effective.open')}
          </Button>
          {canAccess(RULES.policyHistory, ctx) && (
            <Button
              component={Link}
              to="/policies/history"
              variant="default"
              size="sm"
              leftSection={<Icon name="recovery" size={16} />}
            >
              {t('policy.history.open')}
            </Button>
          )}
        </PageAction>
        <Tabs.List mb="md">
          <Tabs.Tab value="team" data-testid="tab-team">
            {t('policy.tab.team')}
          </Tabs.Tab>
          <Tabs.Tab value="groups" data-testid="tab-groups">
            {t('policy.tab.groups')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="team">
          <TeamPolicyTab />
        </Tabs.Panel>
        <Tabs.Panel value="groups">
          <GroupPolicyTab />
        </Tabs.Panel>
      </Tabs>
      {effective && <EffectivePolicyDialog onClose={() => setEffective(false)} />}
    </>
  );
}
