import type { Db, Queryable } from '@latchkey/runtime';
import { hashPassword } from '../../platform/passwords.ts';
import { billingRepository as repo } from './billing.repository.ts';
import { addDays, addMonths, todayUtc } from './proration.ts';

/** One super admin per demo subscription state (each their own team, so nobody else's sign-in changes). */
export const BILLING_DEMO_ADMINS = {
  grace: 'fiona@proseware.example',
  ended: 'dana@adatum.example',
  reseller: 'tom@wingtip.example',
  benefit: 'wendy@woodgrove.example',
  fastspring: 'lee@lucerne.example',
} as const;

interface DemoTeam {
  slug: string;
  name: string;
  admin: string;
  adminName: string;
  plan: 'starter' | 'standard' | 'enterprise';
  duration: '1' | '12';
  state: 'billed' | 'pending' | 'expired' | 'refunded';
  partner: 'reseller' | 'b2b_benefit' | 'fastspring' | null;
  billType: 'manual' | 'automatic';
  total: number;
  members: number;
  termStart: string;
  billEnd: string;
  graceUntil?: string;
  overdueInvoice?: { dueDate: string; cents: number };
}

/**
 * Billing demo: Northwind billed yearly on manual invoices, the family on its trial, and
 * one team per other subscription state: in grace period with an overdue invoice, ended, managed
 * by a reseller (unlimited licences), by a benefit (refunded), and billed through FastSpring.
 * Idempotent: a second run adds nothing.
 */
export async function seedBillingDemo(db: Db, password: string, now = new Date()): Promise<void> {
  const today = todayUtc(now);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [northwind] = await tx.query<{ id: string }>("select id from teams where slug = 'northwind'");
    if (northwind) {
      await repo.ensure(tx, northwind.id);
      await repo.updateSubscription(tx, northwind.id, {
        plan: 'enterprise',
        plan_duration: '12',
        term_start: '2026-07-01',
        bill_end_date: '2027-07-01',
        billing_email: 'billing@northwind.example',
        currency: 'USD',
        unit_price_cents: 9600,
      });
      await tx.query("update teams set valid_till = '2027-07-01' where id = $1", [northwind.id]);
    }
    const [family] = await tx.query<{ id: string; valid_till: string }>(
      "select id, to_char(valid_till, 'YYYY-MM-DD') as valid_till from teams where slug = 'sam-family'",
    );
    if (family) {
      await repo.ensure(tx, family.id);
      await repo.updateSubscription(tx, family.id, {
        plan: 'starter',
        plan_duration: '1',
        term_start: addDays(family.valid_till, -14),
        bill_end_date: family.valid_till,
        billing_email: 'sam@okafor.example',
        currency: 'EUR',
        unit_price_cents: 400,
      });
    }
    const teams: DemoTeam[] = [
      {
        slug: 'proseware',
        name: 'Proseware (grace period)',
        admin: BILLING_DEMO_ADMINS.grace,
        adminName: 'Fiona Reyes',
        plan: 'standard',
        duration: '1',
        state: 'pending',
        partner: null,
        billType: 'manual',
        total: 20,
        members: 12,
        termStart: addDays(today, -5),
        billEnd: addMonths(addDays(today, -5), 1),
        graceUntil: addDays(today, 9),
        overdueInvoice: { dueDate: addDays(today, -5), cents: 20 * 700 },
      },
      {
        slug: 'adatum',
        name: 'Adatum (ended)',
        admin: BILLING_DEMO_ADMINS.ended,
        adminName: 'Dana Kim',
        plan: 'starter',
        duration: '12',
        state: 'expired',
        partner: null,
        billType: 'manual',
        total: 10,
        members: 4,
        termStart: addMonths(today, -13),
        billEnd: addMonths(today, -1),
      },
      {
        slug: 'wingtip',
        name: 'Wingtip Toys',
        admin: BILLING_DEMO_ADMINS.reseller,
        adminName: 'Tom Baker',
        plan: 'enterprise',
        duration: '12',
        state: 'billed',
        partner: 'reseller',
        billType: 'manual',
        total: -1,
        members: 30,
        termStart: addMonths(today, -2),
        billEnd: addMonths(today, 10),
      },
      {
        slug: 'woodgrove',
        name: 'Woodgrove Bank',
        admin: BILLING_DEMO_ADMINS.benefit,
        adminName: 'Wendy Park',
        plan: 'standard',
        duration: '12',
        state: 'refunded',
        partner: 'b2b_benefit',
        billType: 'manual',
        total: 25,
        members: 8,
        termStart: addMonths(today, -3),
        billEnd: addMonths(today, 9),
      },
      {
        slug: 'lucerne',
        name: 'Lucerne Publishing',
        admin: BILLING_DEMO_ADMINS.fastspring,
        adminName: 'Lee Wong',
        plan: 'standard',
        duration: '12',
        state: 'billed',
        partner: 'fastspring',
        billType: 'automatic',
        total: 15,
        members: 10,
        termStart: addMonths(today, -4),
        billEnd: addMonths(today, 8),
      },
    ];
    for (const t of teams) await seedTeam(tx, t, passwordHash);
  });
}

async function seedTeam(tx: Queryable, t: DemoTeam, passwordHash: string): Promise<void> {
  const [team] = await tx.query<{ id: string }>(
    `insert into teams (slug, name, team_type, organization_type, bill_state, bill_type, purchase_partner, total_licences, started_on, valid_till)
     values ($1, $2, 'organization', $3, $4, $5, $6, $7, $8, $9) on conflict (slug) do nothing returning id`,
    [t.slug, t.name, t.plan, t.state, t.billType, t.partner, t.total, t.termStart, t.billEnd],
  );
  if (!team) return;
  const [user] = await tx.query<{ id: string }>(
    'insert into users (email, name, password_hash) values ($1, $2, $3) on conflict (email) do update set name = excluded.name returning id',
    [t.admin, t.adminName, passwordHash],
  );
  await tx.query("insert into team_admins (team_id, user_id, scopes) values ($1, $2, '{super_admin}')", [team.id, user?.id]);
  const domain = t.admin.split('@')[1];
  await tx.query(
    `insert into members (team_id, email, name, usage, licensed)
     select $1, 'member' || i || '@' || $2, 'Member ' || i, 'active', true from generate_series(1, $3::int) as i`,
    [team.id, domain, t.members],
  );
  const unit = { starter: { '1': 400, '12': 4000 }, standard: { '1': 700, '12': 7200 }, enterprise: { '1': 1000, '12': 9600 } }[
    t.plan
  ][t.duration];
  await tx.query(
    `insert into subscriptions (team_id, plan, plan_duration, term_start, bill_end_date, grace_until, billing_email, autorenew, currency, unit_price_cents, provider_subscription_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'USD', $9, $10)`,
    [
      team.id,
      t.plan,
      t.duration,
      t.termStart,
      t.billEnd,
      t.graceUntil ?? null,
      `billing@${domain}`,
      t.state === 'billed' || t.state === 'pending',
      unit,
      t.partner === 'fastspring' ? `fs-sub-${t.slug}` : null,
    ],
  );
  if (t.overdueInvoice) {
    await repo.insertInvoice(tx, {
      team_id: team.id,
      kind: 'renewal',
      provider: 'manual',
      currency: 'USD',
      lines: [
        {
          description: `Renewal, Standard monthly plan, ${t.total} licences, ${t.termStart} to ${addDays(t.billEnd, -1)}`,
          detail: { plan: t.plan, plan_duration: t.duration, licences: t.total, from: t.termStart, to: addDays(t.billEnd, -1) },
          quantity: t.total,
          unit_cents: unit,
          amount_cents: t.overdueInvoice.cents,
        },
      ],
      total_cents: t.overdueInvoice.cents,
      change: { renew_from: t.termStart },
      bill_to: { team_name: t.name, team_slug: t.slug, billing_email: `billing@${domain}` },
      due_date: t.overdueInvoice.dueDate,
    });
  }
}
