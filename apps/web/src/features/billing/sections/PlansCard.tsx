import { type Plan, type Subscription, savingPlanOf } from '@latchkey/contracts/client';
import { Alert, Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DataFetchError } from '../../../components/StatusScreens.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { usePlansQuery } from '../api.ts';
import type { Dialog } from './dialog.ts';
import { planLabel, Section } from './Section.tsx';

export function PlansCard({ s, open }: { s: Subscription; open: (d: Dialog) => void }) {
  const { t } = useTranslation();
  const plans = usePlansQuery();
  const [frequency, setFrequency] = useState<string>(s.plan_duration);
  // After a switch (the saving plan), the plans shown follow the new frequency.
  useEffect(() => setFrequency(s.plan_duration), [s.plan_duration]);
  const saving = savingPlanOf(s.plan_id);
  const savingPlan = plans.data?.plans.find((p) => p.id === saving);
  const monthly = plans.data?.plans.find((p) => p.id === s.plan_id);
  return (
    <Section
      title={t('billing.plans')}
      testId="billing-plans"
      action={
        <SegmentedControl
          size="xs"
          value={frequency}
          onChange={setFrequency}
          data={[
            { value: '1', label: t('billing.monthly') },
            { value: '12', label: t('billing.yearly') },
          ]}
          data-testid="plans-frequency"
        />
      }
    >
      {savingPlan && monthly && s.state !== 'trial' && (
        <Alert color="teal" mb="md" data-testid="saving-plan">
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              {t('billing.saving_plan.body', {
                plan: planLabel(t, savingPlan.planType),
                amount: formatMoney(savingPlan.yearly_saving ?? 0, plans.data?.currency ?? s.currency),
              })}
            </Text>
            <Button size="xs" onClick={() => open({ kind: 'plan', planId: savingPlan.id })} data-testid="saving-plan-switch">
              {t('billing.saving_plan.switch')}
            </Button>
          </Group>
        </Alert>
      )}
      {plans.isError ? (
        <DataFetchError onRetry={() => void plans.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {plans.data
            ? plans.data.plans
                .filter((p) => p.billFrequency === frequency)
                .map((p) => <PlanCard key={p.id} plan={p} s={s} currency={plans.data.currency} open={open} />)
            : [0, 1, 2].map((i) => <Skeleton key={i} h={150} radius="md" />)}
        </SimpleGrid>
      )}
    </Section>
  );
}

function PlanCard({ plan, s, currency, open }: { plan: Plan; s: Subscription; currency: string; open: (d: Dialog) => void }) {
  const { t } = useTranslation();
  const current = plan.id === s.plan_id && s.state !== 'trial';
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid="plan-card"
      data-plan={plan.id}
      data-current={current ? 'true' : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={700}>{planLabel(t, plan.planType)}</Text>
          {current && (
            <Badge variant="light" color="indigo">
              {t('billing.plan.current')}
            </Badge>
          )}
        </Group>
        <Text size="xl" fw={700} data-testid="plan-price">
          {formatMoney(plan.price, currency)}
        </Text>
        <Text size="xs" c="dimmed">
          {t(plan.billFrequency === '1' ? 'billing.per_licence_month_short' : 'billing.per_licence_year_short')}
        </Text>
        {plan.yearly_saving !== null && plan.yearly_saving > 0 && (
          <Badge color="teal" variant="light" data-testid="plan-saving">
            {t('billing.yearly_saving', { amount: formatMoney(plan.yearly_saving, currency) })}
          </Badge>
        )}
        <Button
          variant={current ? 'default' : 'light'}
          disabled={current}
          onClick={() => open({ kind: 'plan', planId: plan.id })}
          data-testid="plan-choose"
        >
          {current ? t('billing.plan.current') : t(s.state === 'trial' ? 'billing.plan.buy' : 'billing.plan.change')}
        </Button>
      </Stack>
    </Card>
  );
}
