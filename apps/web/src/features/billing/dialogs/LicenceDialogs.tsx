import type { Subscription } from '@latchkey/contracts/client';
import { Card, Group, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ModalError } from '../../../components/ModalError.tsx';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useBillingMutation, useLicenceQuoteQuery } from '../api.ts';
import { QuantityInput } from '../QuantityInput.tsx';
import { addableLicences, quantityProblem } from '../rules.ts';

export function AddLicencesDialog({ s, onClose }: { s: Subscription; onClose: () => void }) {
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

export function RemoveLicencesDialog({ s, onClose }: { s: Subscription; onClose: () => void }) {
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
