import type { BillFrequency, BillState, BillType, PlanType, PurchasePartner } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { recordAction } from '../eventlogs/index.ts';
import { invoicesRepository } from './invoices.repository.ts';

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

const SUBSCRIPTION_COLUMNS = `s.team_id, t.slug as team_slug, t.name as team_name, t.team_type, t.bill_state, t.bill_type,
  t.purchase_partner, t.total_licences, s.plan, s.plan_duration, to_char(s.term_start, 'YYYY-MM-DD') as term_start,
  to_char(s.bill_end_date, 'YYYY-MM-DD') as bill_end_date, to_char(s.grace_until, 'YYYY-MM-DD') as grace_until,
  s.billing_email, s.autorenew, s.currency, s.unit_price_cents, s.provider_subscription_id`;

const subscriptionQueries = {
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
};

/** The subscription's queries and its invoices' ones, as one object for the billing commands. */
export const billingRepository = { ...subscriptionQueries, ...invoicesRepository };
