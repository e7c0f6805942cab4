import type { BillFrequency, BillState, BillType, InvoiceState, PlanType, PurchasePartner } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { recordAction } from '../eventlogs/index.ts';

/** A team's subscription with the team's own billing columns, as one row. */
export interface SubscriptionRow {
  team_id: string;
  team_slug: string;
  team_name: string;
  team_type: 'organization' | 'family';
  bill_state: BillState;
  bill_type: BillType;
  purchase_partner: PurchasePartner | null;
  total_licences: number;
  plan: PlanType;
  plan_duration: BillFrequency;
  term_start: string;
  bill_end_date: string;
  grace_until: string | null;
  billing_email: string;
  autorenew: boolean;
  currency: string;
  unit_price_cents: number;
  provider_subscription_id: string | null;
}

export interface InvoiceLine {
  description: string;
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

const SUBSCRIPTION_COLUMNS = `s.team_id, t.slug as team_slug, t.name as team_name, t.team_type, t.bill_state, t.bill_type,
  t.purchase_partner, t.total_licences, s.plan, s.plan_duration, to_char(s.term_start, 'YYYY-MM-DD') as term_start,
  to_char(s.bill_end_date, 'YYYY-MM-DD') as bill_end_date, to_char(s.grace_until, 'YYYY-MM-DD') as grace_until,
  s.billing_email, s.autorenew, s.currency, s.unit_price_cents, s.provider_subscription_id`;

const INVOICE_COLUMNS = `id, number::text as number, team_id, kind, state, provider, provider_ref, currency, lines, total_cents,
  change, bill_to, issued_at, to_char(due_date, 'YYYY-MM-DD') as due_date, paid_at`;

export const billingRepository = {
  /**
   * A team made after the billing migration (the CLI, the demo) gets its subscription on first
   * read: its organisation type's plan, yearly, renewing at valid_till, billed to its first super admin.
   */
  async ensure(q: Queryable, teamId: string): Promise<void> {
    await q.query(
      `insert into subscriptions (team_id, plan, plan_duration, term_start, bill_end_date, billing_email, unit_price_cents)
       select t.id,
         case when t.organization_type in ('starter', 'standard', 'enterprise') then t.organization_type else 'standard' end,
         '12', least(t.started_on, t.valid_till - 1), t.valid_till,
         coalesce((select u.email from team_admins ta join users u on u.id = ta.user_id
                   where ta.team_id = t.id and 'super_admin' = any(ta.scopes) order by u.email limit 1),
                  'billing@' || t.slug || '.invalid'),
         case when t.organization_type = 'starter' then 4000 when t.organization_type = 'enterprise' then 9600 else 7200 end
       from teams t where t.id = $1
       on conflict (team_id) do nothing`,
      [teamId],
    );
  },

  async find(q: Queryable, teamId: string, lock = false): Promise<SubscriptionRow | undefined> {
    const [row] = await q.query<SubscriptionRow>(
      `select ${SUBSCRIPTION_COLUMNS} from subscriptions s join teams t on t.id = s.team_id where s.team_id = $1
       ${lock ? 'for update of t, s' : ''}`,
      [teamId],
    );
    return row;
  },

  async teamIdBySlug(q: Queryable, slug: string): Promise<string | undefined> {
    const [row] = await q.query<{ id: string }>('select id from teams where slug = $1', [slug]);
    return row?.id;
  },

  async teamIdByProviderSubscription(q: Queryable, id: string): Promise<string | undefined> {
    const [row] = await q.query<{ team_id: string }>('select team_id from subscriptions where provider_subscription_id = $1', [
      id,
    ]);
    return row?.team_id;
  },

  async usedLicences(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      'select count(*)::int as n from members where team_id = $1 and deboarded_at is null and licensed',
      [teamId],
    );
    return row?.n ?? 0;
  },

  /** Licences in open orders: counted against the 500 cap before they are paid. */
  async licencesOnOrder(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      `select coalesce(sum((change ->> 'add_licenses')::int), 0)::int as n from invoices
       where team_id = $1 and state = 'open' and kind = 'licenses'`,
      [teamId],
    );
    return row?.n ?? 0;
  },

  async setTotalLicences(q: Queryable, teamId: string, total: number): Promise<void> {
    await q.query('update teams set total_licences = $2 where id = $1', [teamId, total]);
  },

  async setTeamBilling(
    q: Queryable,
    teamId: string,
    fields: {
      bill_state?: BillState;
      valid_till?: string;
      organization_type?: PlanType;
      purchase_partner?: PurchasePartner | null;
      bill_type?: BillType;
    },
  ): Promise<void> {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return;
    await q.query(`update teams set ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')} where id = $1`, [
      teamId,
      ...entries.map(([, v]) => v),
    ]);
  },

  async updateSubscription(
    q: Queryable,
    teamId: string,
    fields: Partial<
      Pick<
        SubscriptionRow,
        | 'plan'
        | 'plan_duration'
        | 'term_start'
        | 'bill_end_date'
        | 'grace_until'
        | 'billing_email'
        | 'autorenew'
        | 'currency'
        | 'unit_price_cents'
        | 'provider_subscription_id'
      >
    >,
  ): Promise<void> {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return;
    await q.query(
      `update subscriptions set ${entries.map(([k], i) => `${k} = $${i + 2}`).join(', ')}, updated_at = now() where team_id = $1`,
      [teamId, ...entries.map(([, v]) => v)],
    );
  },

  async insertInvoice(q: Queryable, inv: NewInvoice): Promise<InvoiceRow | undefined> {
    const [row] = await q.query<InvoiceRow>(
      `insert into invoices (team_id, kind, state, provider, provider_ref, currency, lines, total_cents, change, bill_to, due_date, paid_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, case when $3 = 'paid' then now() end)
       on conflict do nothing
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

  async invoiceByNumber(q: Queryable, number: number): Promise<InvoiceRow | undefined> {
    const [row] = await q.query<InvoiceRow>(`select ${INVOICE_COLUMNS} from invoices where number = $1`, [number]);
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
      `select ${INVOICE_COLUMNS} from invoices where team_id = $1 order by issued_at desc, number desc limit $2 offset $3`,
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

  /** Records a purchase partner's event once; false when it was already recorded (a redelivery). */
  async recordProviderEvent(
    q: Queryable,
    e: { provider: string; event_id: string; type: string; team_id: string | null; outcome: string },
  ): Promise<boolean> {
    const rows = await q.query(
      `insert into billing_provider_events (provider, event_id, type, team_id, outcome) values ($1, $2, $3, $4, $5)
       on conflict do nothing returning event_id`,
      [e.provider, e.event_id, e.type, e.team_id, e.outcome],
    );
    return rows.length > 0;
  },

  /** A billing action, in the team's member history and its event log. */
  async recordEvent(
    q: Queryable,
    teamId: string,
    actorId: string | null,
    action: string,
    target: string,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await q.query('insert into member_events (team_id, actor_id, action, target_email, detail) values ($1, $2, $3, $4, $5)', [
      teamId,
      actorId,
      action,
      target,
      JSON.stringify(detail),
    ]);
    // The team's event log: the admin who acted, else the schedule or the payment provider (system).
    await recordAction(q, { teamId, actorId, action, targets: [target], detail });
  },

  // ── The schedule (manual invoicing) ──────────────────────────────────────────────────────────

  /** Manual subscriptions renewing automatically whose renewal invoice is due to be issued. */
  async renewalsDue(q: Queryable, issueFrom: string): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>(
      `select s.team_id from subscriptions s join teams t on t.id = s.team_id
       where s.autorenew and t.purchase_partner is null and t.bill_state in ('billed', 'pending')
         and s.bill_end_date <= $1::date
         and not exists (select 1 from invoices i where i.team_id = s.team_id and i.kind = 'renewal'
                         and i.change ->> 'renew_from' = to_char(s.bill_end_date, 'YYYY-MM-DD'))`,
      [issueFrom],
    );
    return rows.map((r) => r.team_id);
  },

  /** Billed teams with a manual invoice unpaid after its due date. */
  async overdueTeams(q: Queryable, today: string): Promise<{ team_id: string; due_date: string }[]> {
    return q.query(
      `select t.id as team_id, to_char(min(i.due_date), 'YYYY-MM-DD') as due_date from teams t
       join invoices i on i.team_id = t.id and i.state = 'open' and i.provider = 'manual' and i.due_date < $1::date
       where t.bill_state = 'billed' group by t.id`,
      [today],
    );
  },

  /** Teams whose grace period ended, and billed teams not renewing whose term ended. */
  async endedTeams(q: Queryable, today: string): Promise<string[]> {
    const rows = await q.query<{ team_id: string }>(
      `select s.team_id from subscriptions s join teams t on t.id = s.team_id
       where (t.bill_state = 'pending' and s.grace_until is not null and s.grace_until < $1::date)
          or (t.bill_state = 'billed' and not s.autorenew and t.purchase_partner is null and s.bill_end_date <= $1::date)`,
      [today],
    );
    return rows.map((r) => r.team_id);
  },
};
