import type { Invoice } from '@latchkey/contracts/client';

/** Which dialog the billing screen has open. */
export type Dialog = { kind: 'add' } | { kind: 'remove' } | { kind: 'plan'; planId: string } | { kind: 'paid'; invoice: Invoice };
