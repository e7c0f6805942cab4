import type { ActionName, BillFrequency, PlanType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { adminsRepository } from '../admins/index.ts';
import { recordAction } from '../eventlogs/index.ts';
import { membersRepository } from '../members/index.ts';
import { type TeamBillingRow, teamRepository } from '../team/index.ts';
import { invoicesRepository } from './invoices.repository.ts';

/** A team's subscription with the team's own billing columns, as one row. */
export interface SubscriptionRow extends TeamBillingRow {
  team_id: string;
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

const SUBSCRIPTION_COLUMNS = `team_id, plan, plan_duration, to_char(term_start, 'YYYY-MM-DD') as term_start,
  to_char(bill_end_date, 'YYYY-MM-DD') as bill_end_date, to_char(grace_until, 'YYYY-MM-DD') as grace_until,
  billing_email, autorenew, currency, unit_price_cents, provider_subscription_id`;

type SubscriptionColumns = Omit<SubscriptionRow, keyof TeamBillingRow>;

const PLANS: readonly string[] = ['starter', 'standard', 'enterprise'] satisfies PlanType[];

const subscriptionQueries = {
  /**
   * A team made after the billing migration (the CLI, the demo) gets its subscription on first
   * read: its organisation type's plan, yearly, renewing at valid_till, billed to its first super admin.
   */
  async ensure(q: Queryable, teamId: string): Promise<void> {
    const [exists] = await q.query('select 1 from subscriptions where team_id = $1', [teamId]);
    if (exists) return;
    const team = await teamRepository.subscriptionSeed(q, teamId);
    if (!team) return;
    const superAdmin = (await adminsRepository.list(q, teamId)).find((a) => a.scopes.includes('super_admin'));
    const type = team.organization_type;
    await q.query(
      `insert into subscriptions (team_id, plan, plan_duration, term_start, bill_end_date, billing_email, unit_price_cents)
       values ($1, $2, '12', least($3::date, $4::date - 1), $4::date, $5, $6)
       on conflict (team_id) do nothing`,
      [
        teamId,
        PLANS.includes(type) ? type : 'standard',
        team.started_on,
        team.valid_till,
        superAdmin?.email ?? `billing@${team.slug}.invalid`,
        type === 'starter' ? 4000 : type === 'enterprise' ? 9600 : 7200,
      ],
    );
  },

  /** The subscription with the team's own billing columns; `lock` holds both rows (the team's first). */
  async find(q: Queryable, teamId: string, lock = false): Promise<SubscriptionRow | undefined> {
    const team = await teamRepository.billing(q, teamId, lock);
    if (!team) return undefined;
    const [s] = await q.query<SubscriptionColumns>(
      `select ${SUBSCRIPTION_COLUMNS} from subscriptions where team_id = $1${lock ? ' for update' : ''}`,
      [teamId],
    );
    if (!s) return undefined;
    return { ...s, ...team };
  },

  async teamIdBySlug(q: Queryable, slug: string): Promise<string | undefined> {
    return (await teamRepository.findBySlug(q, slug))?.id;
  },

  async teamIdByProviderSubscription(q: Queryable, id: string): Promise<string | undefined> {
    const [row] = await q.query<{ team_id: string }>('select team_id from subscriptions where provider_subscription_id = $1', [
      id,
    ]);
    return row?.team_id;
  },

  usedLicences: (q: Queryable, teamId: string): Promise<number> => membersRepository.licensedCount(q, teamId),

  /** The team's licence count (a column of the teams row). */
  setTotalLicences: (q: Queryable, teamId: string, total: number): Promise<void> =>
    teamRepository.setTotalLicences(q, teamId, total),

  /** The team's billing columns (state, licence end, plan, partner, bill type). */
  setTeamBilling: teamRepository.setBilling,

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
    action: ActionName & `billing_${string}`,
    target: string,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await membersRepository.insertHistory(q, teamId, actorId, action, [target], detail);
    // The team's event log: the admin who acted, else the schedule or the payment provider (system).
    await recordAction(q, { teamId, actorId, action, targets: [target], detail });
  },
};

/** The subscription's queries and its invoices' ones, as one object for the billing commands. */
export const billingRepository = { ...subscriptionQueries, ...invoicesRepository };
