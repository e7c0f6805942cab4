import type { Invoice } from '@latchkey/contracts/client';
import { formatDate, formatNumber, isolate } from '../../lib/format.ts';
import { frequencyLabel, planLabel } from './sections/Section.tsx';

type T = (key: string, values?: Record<string, string | number>) => string;

/**
 * What an invoice is for, in the admin's language: the plan, the licences and the days it covers,
 * each figure isolated for right-to-left languages. Invoices made before the detail was kept keep
 * their English description.
 */
export function invoiceDescription(t: T, invoice: Invoice): string {
  const d = invoice.detail;
  if (!d) return invoice.description;
  const values = {
    plan: `${planLabel(t, d.plan)} · ${frequencyLabel(t, d.plan_duration)}`,
    licences: d.licences === null ? '' : isolate(formatNumber(d.licences)),
    from: isolate(formatDate(d.from)),
    to: isolate(formatDate(d.to)),
  };
  if (invoice.kind === 'renewal')
    return t(d.licences === null ? 'billing.invoice.desc.renewal_term' : 'billing.invoice.desc.renewal', values);
  return t(invoice.kind === 'licenses' ? 'billing.invoice.desc.licenses' : 'billing.invoice.desc.plan_change', values);
}
