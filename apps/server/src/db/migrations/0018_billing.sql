-- Billing and licences (issue 15): one subscription per team, its invoices, and the purchase
-- partner's events already applied. The team's bill_state, bill_type, purchase_partner,
-- valid_till and total_licences (teams) stay where the session context reads them.

create table subscriptions (
  team_id uuid primary key references teams (id) on delete cascade,
  plan text not null check (plan in ('starter', 'standard', 'enterprise')),
  plan_duration text not null check (plan_duration in ('1', '12')),
  term_start date not null,
  -- The renewal date: the term's last day is the day before.
  bill_end_date date not null check (bill_end_date > term_start),
  grace_until date,
  billing_email text not null,
  autorenew boolean not null default true,
  currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  -- One licence for one term, in cents of the currency: the price the team bought at.
  unit_price_cents integer not null check (unit_price_cents >= 0),
  provider_subscription_id text unique,
  updated_at timestamptz not null default now()
);

create sequence invoice_numbers;

create table invoices (
  id uuid primary key default gen_random_uuid(),
  number bigint not null unique default nextval('invoice_numbers'),
  team_id uuid not null references teams (id) on delete cascade,
  kind text not null check (kind in ('licenses', 'plan_change', 'renewal')),
  state text not null default 'open' check (state in ('open', 'paid', 'void')),
  provider text not null check (provider in ('manual', 'fastspring')),
  provider_ref text,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  -- [{description, quantity, unit_cents, amount_cents}]
  lines jsonb not null,
  total_cents integer not null check (total_cents >= 0),
  -- What paying the invoice applies: {"add_licenses": n} | {"plan", "plan_duration", "unit_price_cents", "term_start", "bill_end_date"} | {"renew_from"}
  change jsonb not null,
  -- The billing details as they were when issued.
  bill_to jsonb not null,
  issued_at timestamptz not null default now(),
  due_date date not null,
  paid_at timestamptz,
  unique (provider, provider_ref)
);
create index invoices_team_issued on invoices (team_id, issued_at desc, number desc);
create index invoices_open_due on invoices (due_date) where state = 'open';

create table billing_provider_events (
  provider text not null,
  event_id text not null,
  type text not null,
  team_id uuid references teams (id) on delete set null,
  outcome text not null,
  received_at timestamptz not null default now(),
  primary key (provider, event_id)
);

-- Every existing team gets a subscription matching what it has: organisations on their
-- organisation type's plan, yearly; family teams on the standard plan. Renewal at valid_till.
insert into subscriptions (team_id, plan, plan_duration, term_start, bill_end_date, billing_email, unit_price_cents)
select t.id,
  case when t.organization_type in ('starter', 'standard', 'enterprise') then t.organization_type else 'standard' end,
  '12',
  least(t.started_on, t.valid_till - 1),
  t.valid_till,
  coalesce((select u.email from team_admins ta join users u on u.id = ta.user_id
            where ta.team_id = t.id and 'super_admin' = any(ta.scopes) order by u.email limit 1), 'billing@' || t.slug || '.invalid'),
  case when t.organization_type = 'starter' then 4000 when t.organization_type = 'enterprise' then 9600 else 7200 end
from teams t;

-- One renewal invoice per term: the sweep may run on several instances at once.
create unique index invoices_one_renewal on invoices (team_id, (change ->> 'renew_from')) where kind = 'renewal';
