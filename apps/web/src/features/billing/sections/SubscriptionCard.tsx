import { emailProblem, type Subscription } from '@latchkey/contracts/client';
import { Badge, Button, Group, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { EmailAddress } from '../../../components/EmailAddress.tsx';
import { ModalError } from '../../../components/ModalError.tsx';
import { errorMessage, errorValues } from '../../../lib/api-error.ts';
import { formatDate, formatMoney, isolate } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useBillingMutation } from '../api.ts';
import { STATE_COLORS } from '../rules.ts';
import { Fact, frequencyLabel, planLabel, Section } from './Section.tsx';

export function SubscriptionCard({ s }: { s: Subscription }) {
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
        {s.display_state === 'ended' ? (
          // An ended subscription does not renew: the day it ended (a refund's day is not kept).
          <Fact label={t('billing.ended')} testId="billing-renewal">
            {s.state === 'expired' ? formatDate(s.bill_end_date) : t('billing.ended.refunded')}
          </Fact>
        ) : (
          <Fact label={t('billing.renewal_date')} testId="billing-renewal">
            {formatDate(s.bill_end_date)}
          </Fact>
        )}
        <Fact label={t('billing.unit_price')} testId="billing-unit-price">
          {t(s.plan_duration === '1' ? 'billing.per_licence_month' : 'billing.per_licence_year', {
            price: isolate(formatMoney(s.unit_price, s.currency)),
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
          <Text size="sm" fw={500} data-testid="billing-email">
            <EmailAddress address={s.billing_email} />
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
  if (s.display_state === 'ended')
    return (
      <Fact label={t('billing.autorenew')} testId="billing-autorenew-ended">
        {t('billing.autorenew.ended')}
      </Fact>
    );
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
