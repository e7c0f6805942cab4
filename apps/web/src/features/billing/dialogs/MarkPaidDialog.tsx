import type { Invoice } from '@latchkey/contracts/client';
import { notifications } from '@mantine/notifications';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { formatMoney, isolate } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useBillingMutation } from '../api.ts';
import { invoiceDescription } from '../invoice-text.ts';

export function MarkPaidDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
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
      {t('billing.paid.body', {
        amount: isolate(formatMoney(invoice.total, invoice.currency)),
        description: invoiceDescription(t, invoice),
      })}
    </ConfirmDialog>
  );
}
