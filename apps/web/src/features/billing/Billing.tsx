import {
  emailProblem,
  type Invoice,
  MANAGED_PARTNERS,
  type Plan,
  type PlanType,
  type Subscription,
  savingPlanOf,
} from '@latchkey/contracts/client';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useEffect, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type Column, DataTable, RowMenu } from '../../components/DataTable.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { formatDate, formatMoney, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  downloadInvoice,
  useBillingMutation,
  useInvoicesQuery,
  useLicenceQuoteQuery,
  usePlanQuoteQuery,
  usePlansQuery,
  useSubscriptionQuery,
} from './api.ts';
import { QuantityInput } from './QuantityInput.tsx';
import { addableLicences, quantityProblem, STATE_COLORS } from './rules.ts';

/** The term's last day is the day before its renewal date. */
const DAY_MS = 86_400_000;

type Dialog = { kind: 'add' } | { kind: 'remove' } | { kind: 'plan'; planId: string } | { kind: 'paid'; invoice: Invoice };

/** /billing (super admin): the subscription, plans, licences and invoices (spec §3–§5, §9). */
export function Billing() {
  const subscription = useSubscriptionQuery();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  if (subscription.isError) return <DataFetchError onRetry={() => void subscription.refetch()} />;
  const s = subscription.data;
  if (!s)
    return (
      <Stack gap="lg" data-testid="billing-loading">
        <Skeleton h={180} radius="md" />
        <Skeleton h={240} radius="md" />
      </Stack>
    );
  const close = () => setDialog(null);
  return (
    <Stack gap="lg" data-testid="billing" data-state={s.state}>
      <StateNotice s={s} />
      <SubscriptionCard s={s} />
      <LicencesCard s={s} open={setDialog} />
      {!s.managed && <PlansCard s={s} open={setDialog} />}
      <InvoicesCard s={s} open={setDialog} />
      {dialog?.kind === 'add' && <AddLicencesDialog s={s} onClose={close} />}
      {dialog?.kind === 'remove' && <RemoveLicencesDialog s={s} onClose={close} />}
      {dialog?.kind === 'plan' && <PlanChangeDialog s={s} planId={dialog.planId} onClose={close} />}
      {dialog?.kind === 'paid' && <MarkPaidDialog invoice={dialog.invoice} onClose={close} />}
    </Stack>
  );
}

function Section({
  title,
  action,
  children,
  testId,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" fw={500} component="div" data-testid={testId}>
        {children}
      </Text>
    </Stack>
  );
}

const planLabel = (t: (k: string) => string, plan: PlanType) => t(`billing.plan.${plan}`);
const frequencyLabel = (t: (k: string) => string, f: string) => t(f === '1' ? 'billing.monthly' : 'billing.yearly');

/** Grace period, ended, trial, managed: what it means for the admin, above the details. */
function StateNotice({ s }: { s: Subscription }) {
  const { t } = useTranslation();
  if (s.managed) {
    const partner = s.purchase_partner && MANAGED_PARTNERS.includes(s.purchase_partner) ? s.purchase_partner : 'reseller';
    return (
      <Alert color="blue" title={t(`billing.managed.${partner}.title`)} data-testid="billing-managed">
        {t(`billing.managed.${partner}.body`)}
      </Alert>
    );
  }
  if (s.display_state === 'grace')
    return (
      <Alert color="yellow" title={t('billing.state.grace')} data-testid="billing-grace">
        {t('billing.grace.body', { date: s.grace_until ? formatDate(s.grace_until) : '' })}
      </Alert>
    );
  if (s.display_state === 'ended')
    return (
      <Alert color="red" title={t('billing.state.ended')} data-testid="billing-ended">
        {t('billing.ended.body')}
      </Alert>
    );
  if (s.display_state === 'trial')
    return (
      <Alert color="blue" title={t('trial.title')} data-testid="billing-trial">
        {t('billing.trial.body', { date: formatDate(s.bill_end_date) })}
      </Alert>
    );
  return null;
}

function SubscriptionCard({ s }: { s: Subscription }) {
  const { t } = useTranslation();
  return (
    <Section title={t('billing.subscription')} testId="billing-subscription">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg" verticalSpacing="md">
        <Fact label={t('billing.status')}>
          <Badge color={STATE_COLORS[s.display_state]} variant="light" data-testid="billing-state">
            {t(`billing.state.${s.display_state}`)}
          </Badge>
        </Fact>
        <Fact label={t('billing.plan')} testId="billing-plan">
          {planLabel(t, s.plan)} · {frequencyLabel(t, s.plan_duration)}
        </Fact>
        <Fact label={t('billing.renewal_date')} testId="billing-renewal">
          {formatDate(s.bill_end_date)}
        </Fact>
        <Fact label={t('billing.unit_price')} testId="billing-unit-price">
          {t(s.plan_duration === '1' ? 'billing.per_licence_month' : 'billing.per_licence_year', {
            price: formatMoney(s.unit_price, s.currency),
          })}
        </Fact>
        <Fact label={t('billing.currency')}>{s.currency}</Fact>
        <Fact label={t('billing.bill_type')}>{t(`billing.bill_type.${s.bill_type}`)}</Fact>
        <BillingEmail s={s} />
        <AutorenewSwitch s={s} />
      </SimpleGrid>
    </Section>
  );
}

function BillingEmail({ s }: { s: Subscription }) {
  const { t } = useTranslation();
  const mutation = useBillingMutation();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(s.billing_email);
  const [touched, setTouched] = useState(false);
  const problem = emailProblem(value);
  const unchanged = value.trim() === s.billing_email;
  if (!editing)
    return (
      <Fact label={t('billing.billing_email')}>
        <Group gap={4} wrap="wrap">
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="billing-email">
            {s.billing_email}
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => {
              setValue(s.billing_email);
              setEditing(true);
            }}
            data-testid="billing-email-edit"
          >
            {t('billing.edit')}
          </Button>
        </Group>
      </Fact>
    );
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || unchanged) return;
    mutation.mutate(
      { kind: 'email', email: value.trim() },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('billing.done.email') });
          setEditing(false);
        },
      },
    );
  };
  return (
    <form onSubmit={save} noValidate style={{ gridColumn: 'span 2' }}>
      <Stack gap="xs">
        <ModalError error={mutation.error} />
        <TextInput
          label={t('billing.billing_email')}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={touched && problem ? t(problem) : undefined}
          maxLength={254}
          data-autofocus
          data-testid="billing-email-input"
        />
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setEditing(false)}>
            {t('common.cancel')}
          </Button>
          <Button
            size="xs"
            type="submit"
            loading={mutation.isPending}
            disabled={!!problem || unchanged}
            data-testid="billing-email-save"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AutorenewSwitch({ s }: { s: Subscription }) {
  const { t } = useTranslation();
  const mutation = useBillingMutation();
  return (
    <Fact label={t('billing.autorenew')}>
      <Switch
        checked={s.autorenew}
        disabled={s.managed || mutation.isPending}
        onChange={(e) =>
          mutation.mutate(
            { kind: 'autorenew', autorenew: e.currentTarget.checked },
            {
              onSuccess: (_r, a) =>
                a.kind === 'autorenew' &&
                notifications.show({
                  color: 'teal',
                  message: t(a.autorenew ? 'billing.done.autorenew_on' : 'billing.done.autorenew_off'),
                }),
              onError: (error) => notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) }),
            },
          )
        }
        label={t(s.autorenew ? 'billing.autorenew.on' : 'billing.autorenew.off')}
        data-testid="billing-autorenew"
      />
    </Fact>
  );
}

function LicencesCard({ s, open }: { s: Subscription; open: (d: Dialog) => void }) {
  const { t } = useTranslation();
  const unlimited = s.total_license < 0;
  const canBuy = !s.managed && !unlimited;
  return (
    <Section
      title={t('billing.licences')}
      testId="billing-licences"
      action={
        canBuy && (
          <Group gap="xs">
            <Button size="sm" variant="default" onClick={() => open({ kind: 'remove' })} data-testid="licences-remove-open">
              {t('billing.licences.remove')}
            </Button>
            <Button
              size="sm"
              onClick={() => open({ kind: 'add' })}
              disabled={addableLicences(s.total_license) - s.licenses_on_order <= 0}
              data-testid="licences-add-open"
            >
              {t('billing.licences.add')}
            </Button>
          </Group>
        )
      }
    >
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg">
        <Fact label={t('billing.licences.total')} testId="licences-total">
          {unlimited ? '—' : formatNumber(s.total_license)}
        </Fact>
        <Fact label={t('billing.licences.in_use')} testId="licences-in-use">
          {formatNumber(s.licenses_in_use)}
        </Fact>
        <Fact label={t('billing.licences.available')} testId="licences-available">
          {s.licenses_available === null ? '—' : formatNumber(s.licenses_available)}
        </Fact>
        <Fact label={t('billing.licences.on_order')} testId="licences-on-order">
          {formatNumber(s.licenses_on_order)}
        </Fact>
      </SimpleGrid>
    </Section>
  );
}

function PlansCard({ s, open }: { s: Subscription; open: (d: Dialog) => void }) {
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

function InvoicesCard({ s, open }: { s: Subscription; open: (d: Dialog) => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const invoices = useInvoicesQuery(page);
  const data = invoices.data;
  const columns: Column<Invoice>[] = [
    {
      key: 'number',
      header: 'billing.invoice.number',
      nowrap: true,
      cell: (i) => (
        <Text size="sm" fw={500}>
          {i.number}
        </Text>
      ),
    },
    { key: 'issued', header: 'billing.invoice.issued', nowrap: true, visibleFrom: 'sm', cell: (i) => formatDate(i.issued_at) },
    { key: 'description', header: 'billing.invoice.description', maxWidth: 360, visibleFrom: 'md', cell: (i) => i.description },
    {
      key: 'total',
      header: 'billing.invoice.total',
      align: 'right',
      nowrap: true,
      cell: (i) => formatMoney(i.total, i.currency),
    },
    {
      key: 'state',
      header: 'billing.invoice.state',
      nowrap: true,
      cell: (i) => (
        <Badge
          size="sm"
          style={{ flexShrink: 0, overflow: 'visible' }}
          variant="light"
          color={i.state === 'paid' ? 'teal' : i.state === 'open' ? 'yellow' : 'gray'}
          data-testid="invoice-state"
        >
          {t(`billing.invoice.state.${i.state}`)}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: 'billing.invoice.actions',
      headerHidden: true,
      width: 48,
      cell: (i) => (
        <RowMenu label={t('billing.invoice.actions_for', { number: i.number })}>
          <Menu.Item
            onClick={() =>
              void downloadInvoice(i.id).catch((error) =>
                notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) }),
              )
            }
            data-testid="invoice-download"
          >
            {t('billing.invoice.download')}
          </Menu.Item>
          {i.state === 'open' && i.provider === 'manual' && !s.managed && (
            // Where the operator records payments, the action stays in view, off, and says why.
            <Menu.Item
              disabled={s.invoice_paid_by === 'operator'}
              onClick={() => open({ kind: 'paid', invoice: i })}
              data-testid="invoice-mark-paid"
            >
              {t('billing.invoice.mark_paid')}
              {s.invoice_paid_by === 'operator' && (
                <Text size="xs" maw={240} data-testid="invoice-paid-by-operator">
                  {t('billing.invoice.paid_by_operator')}
                </Text>
              )}
            </Menu.Item>
          )}
        </RowMenu>
      ),
    },
  ];
  return (
    <Section title={t('billing.invoices')} testId="billing-invoices">
      <DataTable
        columns={columns}
        rows={data?.results}
        rowKey={(i) => i.id}
        rowProps={(i) => ({ 'data-testid': 'invoice-row', 'data-number': i.number, 'data-state': i.state })}
        testId="invoices-table"
        minWidth={280}
        skeletonRows={3}
        error={invoices.isError}
        onRetry={() => void invoices.refetch()}
        emptyTestId="invoices-empty"
        empty={<Text c="dimmed">{t('billing.invoices.empty')}</Text>}
        pager={
          data && data.total > 0
            ? { page, pages: data.pages, total: data.total, shown: data.results.length, onPage: setPage }
            : undefined
        }
      />
    </Section>
  );
}

function AddLicencesDialog({ s, onClose }: { s: Subscription; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useBillingMutation();
  const max = Math.max(0, addableLicences(s.total_license) - s.licenses_on_order);
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = quantityProblem(value, max);
  const [debounced] = useDebouncedValue(problem ? null : Number(value), 250);
  const quote = useLicenceQuoteQuery(problem ? null : debounced);
  const ready = !problem && quote.data?.quantity === Number(value);
  return (
    <ConfirmDialog
      title={t('billing.add.title')}
      action={t('billing.add.confirm')}
      color={null}
      pending={mutation.isPending}
      error={mutation.error}
      confirmDisabled={!ready}
      testId="licences-add-dialog"
      confirmTestId="licences-add-confirm"
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(
          { kind: 'add', quantity: Number(value) },
          {
            onSuccess: (r) => {
              const number = r && 'invoice' in r && r.invoice ? r.invoice.number : '';
              notifications.show({ color: 'teal', message: t('billing.done.add', { n: formatNumber(Number(value)), number }) });
              onClose();
            },
          },
        )
      }
    >
      <Stack gap="sm">
        <QuantityInput
          label={t('billing.quantity')}
          description={t('billing.quantity.range', { max: formatNumber(max) })}
          value={value}
          onChange={setValue}
          onBlur={() => setTouched(true)}
          error={(touched || value !== '') && problem ? t(problem.key, problem.values) : undefined}
          testId="licences-add-quantity"
        />
        {quote.isError && <ModalError error={quote.error} />}
        {ready && quote.data && (
          <Card withBorder radius="sm" padding="sm" data-testid="licences-quote">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text size="sm" style={{ flex: 1 }}>
                {t('billing.quote.per_licence')}
              </Text>
              <Text size="sm" fw={500} data-testid="quote-per-licence">
                {formatMoney(quote.data.price_per_license, quote.data.currency)}
              </Text>
            </Group>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text size="sm" style={{ flex: 1 }}>
                {t('billing.quote.pro_rated', {
                  n: formatNumber(quote.data.quantity),
                  days: formatNumber(quote.data.remaining_days),
                  term: formatNumber(quote.data.term_days),
                })}
              </Text>
              <Text size="sm" fw={700} data-testid="quote-pro-rated">
                {formatMoney(quote.data.pro_rated_price, quote.data.currency)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" mt="xs">
              {t('billing.add.invoice_note')}
            </Text>
          </Card>
        )}
      </Stack>
    </ConfirmDialog>
  );
}

function RemoveLicencesDialog({ s, onClose }: { s: Subscription; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useBillingMutation();
  const removable = Math.max(0, s.total_license - s.licenses_in_use);
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const problem =
    quantityProblem(value, removable) && quantityProblem(value, removable)?.key === 'billing.quantity.max'
      ? { key: 'billing.errors.below_in_use', values: { used: s.licenses_in_use, max: removable } }
      : quantityProblem(value, removable)?.key === 'billing.quantity.none_left'
        ? { key: 'billing.remove.none', values: { used: s.licenses_in_use } }
        : quantityProblem(value, removable);
  const after = problem ? null : s.total_license - Number(value);
  return (
    <ConfirmDialog
      title={t('billing.remove.title')}
      action={t('billing.remove.confirm')}
      pending={mutation.isPending}
      error={mutation.error}
      confirmDisabled={!!problem}
      testId="licences-remove-dialog"
      confirmTestId="licences-remove-confirm"
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(
          { kind: 'remove', quantity: Number(value) },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: t('billing.done.remove', { n: formatNumber(Number(value)) }) });
              onClose();
            },
          },
        )
      }
    >
      <Stack gap="sm">
        <QuantityInput
          label={t('billing.quantity')}
          description={t('billing.remove.range', { max: formatNumber(removable), used: formatNumber(s.licenses_in_use) })}
          value={value}
          onChange={setValue}
          onBlur={() => setTouched(true)}
          error={(touched || value !== '') && problem ? t(problem.key, problem.values) : undefined}
          testId="licences-remove-quantity"
        />
        {after !== null && (
          <Text size="sm" data-testid="licences-after-removal">
            {t('billing.remove.after', { n: formatNumber(after) })}
          </Text>
        )}
      </Stack>
    </ConfirmDialog>
  );
}

function PlanChangeDialog({ s, planId, onClose }: { s: Subscription; planId: string; onClose: () => void }) {
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

function MarkPaidDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useBillingMutation();
  return (
    <ConfirmDialog
      title={t('billing.paid.title', { number: invoice.number })}
      action={t('billing.paid.confirm')}
      color={null}
      pending={mutation.isPending}
      error={mutation.error}
      testId="invoice-paid-dialog"
      confirmTestId="invoice-paid-confirm"
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(
          { kind: 'paid', id: invoice.id },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: t('billing.done.paid', { number: invoice.number }) });
              onClose();
            },
          },
        )
      }
    >
      {t('billing.paid.body', { amount: formatMoney(invoice.total, invoice.currency), description: invoice.description })}
    </ConfirmDialog>
  );
}
