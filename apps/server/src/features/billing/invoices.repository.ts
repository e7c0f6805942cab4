import type { BillFrequency, InvoiceDetail, InvoiceState, PlanType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { teamRepository } from '../team/index.ts';

export interface InvoiceLine {
  /** The line in English (the PDF and the operator's CLI). */
  description: string;
  /** What the line is for, as data, so the console can say it in the admin's language (older lines have none). */
  detail?: InvoiceDetail;
  quantity: number;
  unit_cents: number;
  amount_cents: number;
}

export type InvoiceChange =
  | { add_licenses: number }
  | { plan: PlanType; plan_duration: BillFrequency; unit_price_cents: number; term_start: string; bill_end_date: string }
  | { renew_from: string };

export interface InvoiceRow {
  id: string;
  number: string;
  team_id: string;
  kind: 'licenses' | 'plan_change' | 'renewal';
  state: InvoiceState;
  provider: 'manual' | 'fastspring';
  provider_ref: string | null;
  currency: string;
  lines: InvoiceLine[];
  total_cents: number;
  change: InvoiceChange;
  bill_to: { team_name: string; team_slug: string; billing_email: string };
  issued_at: Date;
  due_date: string;
  paid_at: Date | null;
}

export type NewInvoice = Pick<
  InvoiceRow,
  'team_id' | 'kind' | 'provider' | 'currency' | 'lines' | 'total_cents' | 'change' | 'bill_to' | 'due_date'
> & {
  state?: InvoiceState;
  provider_ref?: string | null;
};

/** `number` is the team's own count (spec: a team's first invoice is its number 1). */
const INVOICE_COLUMNS = `id, coalesce(team_number, number)::text as number, team_id, kind, state, provider, provider_ref, currency, lines, total_cents,
  change, bill_to, issued_at, to_char(due_date, 'YYYY-MM-DD') as due_date, paid_at`;

/** Invoices, the licences on order in them, and the manual invoicing schedule's queries. */
export const invoicesRepository = {
  /** Licences in open orders: counted against the 500 cap before they are paid. */
  async licencesOnOrder(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      `select coalesce(sum((change ->> 'add_licenses')::int), 0)::int as n from invoices
       where team_id = $1 and state = 'open' and kind = 'licenses'`,
      [teamId],
    );
    return row?.n ?? 0;
  },

  /**
   * Issues an invoice with the team's next number. The team's subscription row is locked first so
   * two invoices of one team issued at once take consecutive numbers (the caller's transaction).
   * A second renewal invoice for the same term is not issued (undefined).
   */
  async insertInvoice(q: Queryable, inv: NewInvoice): Promise<InvoiceRow | undefined> {
    await q.query('select 1 from subscriptions where team_id = $1 for update', [inv.team_id]);
    const [row] = await q.query<InvoiceRow>(
      `insert into invoices (team_id, team_number, kind, state, provider, provider_ref, currency, lines, total_cents, change, bill_to, due_date, paid_at)
       values ($1, (select coalesce(max(team_number), 0) + 1 from invoices where team_id = $1),
               $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, case when $3 = 'paid' then now() end)
       on conflict (team_id, (change ->> 'renew_from')) where kind = 'renewal' do nothing
       returning ${INVOICE_COLUMNS}`,
      [
        inv.team_id,
        inv.kind,
        inv.state ?? 'open',
        inv.provider,
        inv.provider_ref ?? null,
        inv.currency,
        JSON.stringify(inv.lines),
        inv.total_cents,
        JSON.stringify(inv.change),
        JSON.stringify(inv.bill_to),
        inv.due_date,
      ],
    );
    return row;
  },

  async invoice(q: Queryable, teamId: string, id: string, lock = false): Promise<InvoiceRow | undefined> {
    const [row] = await q.query<InvoiceRow>(
      `select ${INVOICE_COLUMNS} from invoices where team_id = $1 and id = $2 ${lock ? 'for update' : ''}`,
      [teamId, id],
    );
    return row;
  },

  /** A team's invoice by the number it shows. */
  async invoiceByNumber(q: Queryable, teamId: string, number: number): Promise<InvoiceRow | undefined> {
    const [row] = await q.query<InvoiceRow>(
      `select ${INVOICE_COLUMNS} from invoices where team_id = $1 and coalesce(team_number, number) = $2`,
      [teamId, number],
    );
    return row;
  },

  async markPaid(q: Queryable, id: string, providerRef: string | null = null): Promise<InvoiceRow | undefined> {
    const [row] = await q.query<InvoiceRow>(
      `update invoices set state = 'paid', paid_at = now(), provider_ref = coalesce($2, provider_ref)
       where id = $1 and state = 'open' returning ${INVOICE_COLUMNS}`,
      [id, providerRef],
    );
    return row;
  },

  async invoicesPage(q: Queryable, teamId: string, limit: number, offset: number): Promise<InvoiceRow[]> {
    return q.query<InvoiceRow>(
      `select ${INVOICE_COLUMNS} from invoices where team_id = $1 order by issued_at desc, coalesce(team_number, number) desc limit $2 offset $3`,
      [teamId, limit, offset],
    );
  },

  async countInvoices(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>('select count(*)::int as n from invoices where team_id = $1', [teamId]);
    return row?.n ?? 0;
  },

  async hasOverdue(q: Queryable, teamId: string, today: string): Promise<boolean> {
    const [row] = await q.query<{ n: number }>(
      `select count(*)::int as n from invoices where team_id = $1 and state = 'open' and due_date < $2`,
      [teamId, today],
    );
    return (row?.n ?? 0) > 0;
  },

  // ── The schedule (manual invoicing) ──────────────────────────────────────────────────────────

  /** Manual subscriptions renewing automatically whose renewal invoice is due to be issued. */
  async renewalsDue(q: Queryable, issueFrom: string): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>(
      `select s.team_id from subscriptions s
       where s.autorenew and s.bill_end_date <= $1::date
         and not exists (select 1 from invoices i where i.team_id = s.team_id and i.kind = 'renewal'
                         and i.change ->> 'renew_from' = to_char(s.bill_end_date, 'YYYY-MM-DD'))`,
      [issueFrom],
    );
    const teams = await teamRepository.billingStates(
      q,
      rows.map((r) => r.team_id),
    );
    return rows
      .map((r) => r.team_id)
      .filter((id) => {
        const t = teams.get(id);
        return t !== undefined && t.purchase_partner === null && (t.bill_state === 'billed' || t.bill_state === 'pending');
      });
  },

  /** Billed teams with a manual invoice unpaid after its due date. */
  async overdueTeams(q: Queryable, today: string): Promise<{ team_id: string; due_date: string }[]> {
    const rows = await q.query<{ team_id: string; due_date: string }>(
      `select team_id, to_char(min(due_date), 'YYYY-MM-DD') as due_date from invoices
       where state = 'open' and provider = 'manual' and due_date < $1::date group by team_id`,
      [today],
    );
    const teams = await teamRepository.billingStates(
      q,
      rows.map((r) => r.team_id),
    );
    return rows.filter((r) => teams.get(r.team_id)?.bill_state === 'billed');
  },

  /** Teams whose grace period ended, and billed teams not renewing whose term ended. */
  async endedTeams(q: Queryable, today: string): Promise<string[]> {
    const rows = await q.query<{ team_id: string; grace_over: boolean; term_over: boolean }>(
      `select team_id, coalesce(grace_until < $1::date, false) as grace_over,
         (not autorenew and bill_end_date <= $1::date) as term_over
       from subscriptions
       where (grace_until is not null and grace_until < $1::date) or (not autorenew and bill_end_date <= $1::date)`,
      [today],
    );
    const teams = await teamRepository.billingStates(
      q,
      rows.map((r) => r.team_id),
    );
    return rows
      .filter((r) => {
        const t = teams.get(r.team_id);
        if (!t) return false;
        return (
          (t.bill_state === 'pending' && r.grace_over) ||
          (t.bill_state === 'billed' && r.term_over && t.purchase_partner === null)
        );
      })
      .map((r) => r.team_id);
  },
};
