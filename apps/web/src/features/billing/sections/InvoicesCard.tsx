import type { Invoice, Subscription } from '@latchkey/contracts/client';
import { Badge, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { type Column, DataTable, RowMenu } from '../../../components/DataTable.tsx';
import { errorMessage, errorValues } from '../../../lib/api-error.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { downloadInvoice, useInvoicesQuery } from '../api.ts';
import { invoiceDescription } from '../invoice-text.ts';
import type { Dialog } from './dialog.ts';
import { Section } from './Section.tsx';

export function InvoicesCard({ s, open }: { s: Subscription; open: (d: Dialog) => void }) {
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
    {
      key: 'description',
      header: 'billing.invoice.description',
      maxWidth: 360,
      visibleFrom: 'md',
      cell: (i) => <span data-testid="invoice-description">{invoiceDescription(t, i)}</span>,
    },
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
