import type { PlanType, Subscription } from '@latchkey/contracts/client';
import { Group, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useBillingMutation, usePlanQuoteQuery } from '../api.ts';
import { frequencyLabel, planLabel } from '../sections/Section.tsx';

/** The term's last day is the day before its renewal date. */
const DAY_MS = 86_400_000;

export function PlanChangeDialog({ s, planId, onClose }: { s: Subscription; planId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useBillingMutation();
  const quote = usePlanQuoteQuery(planId);
  const q = quote.data;
  const [plan, frequency] = planId.split('-') as [PlanType, string];
  return (
    <ConfirmDialog
      title={t(s.state === 'trial' ? 'billing.plan.buy_title' : 'billing.plan.change_title', {
        plan: `${planLabel(t, plan)} · ${frequencyLabel(t, frequency)}`,
      })}
      action={t('billing.plan.confirm')}
      color={null}
      pending={mutation.isPending}
      error={mutation.error ?? quote.error}
      confirmDisabled={!q}
      testId="plan-change-dialog"
      confirmTestId="plan-change-confirm"
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(
          { kind: 'plan', planId },
          {
            onSuccess: (r) => {
              const invoice = r && 'invoice' in r && r.invoice ? r.invoice.number : null;
              notifications.show({
                color: 'teal',
                message: invoice ? t('billing.done.plan_invoiced', { number: invoice }) : t('billing.done.plan_applied'),
              });
              onClose();
            },
          },
        )
      }
    >
      {q ? (
        <Stack gap={6} data-testid="plan-quote">
          <Row
            label={t('billing.quote.charge', { n: formatNumber(q.licenses) })}
            value={formatMoney(q.charge, q.currency)}
            testId="plan-quote-charge"
          />
          <Row label={t('billing.quote.credit')} value={`− ${formatMoney(q.credit, q.currency)}`} testId="plan-quote-credit" />
          <Row label={t('billing.quote.due')} value={formatMoney(q.amount_due, q.currency)} strong testId="plan-quote-due" />
          <Text size="xs" c="dimmed">
            {t('billing.quote.new_term', {
              from: formatDate(q.term_start),
              to: formatDate(Date.parse(q.bill_end_date) - DAY_MS),
            })}
          </Text>
        </Stack>
      ) : quote.isError ? null : (
        <Skeleton h={80} />
      )}
    </ConfirmDialog>
  );
}

function Row({ label, value, strong, testId }: { label: string; value: string; strong?: boolean; testId: string }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text size="sm" fw={strong ? 700 : 400} style={{ flex: 1 }}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : 500} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}
