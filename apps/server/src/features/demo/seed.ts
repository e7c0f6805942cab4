import { Ed25519JwkSchema } from '@latchkey/contracts';
import type { Db, Queryable } from '@latchkey/runtime';
import { hashPassword } from '../../platform/passwords.ts';
import { seedDevicesDemo } from '../devices/index.ts';
import { seedMembersDemo } from '../members/index.ts';

export const DEMO_PASSWORD = 'Latchkey-demo-2026';
export const DEMO_ADMINS = {
  superAdmin: 'alex@northwind.example',
  admin: 'adam@northwind.example',
  integrator: 'ivy@northwind.example',
  recoveryAgent: 'rory@northwind.example',
  /** Administers Northwind and owns a family team: sees the team selector. */
  twoTeams: 'sam@northwind.example',
} as const;

const FIRST = [
  'Ava',
  'Ben',
  'Chloe',
  'Dev',
  'Elif',
  'Farah',
  'Gus',
  'Hana',
  'Ines',
  'Jon',
  'Kai',
  'Lena',
  'Mateo',
  'Nia',
  'Omar',
  'Pia',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wes',
  'Yara',
  'Zoe',
];
const LAST = ['Andersen', 'Brooks', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski'];
const GROUPS = ['Engineering', 'Sales', 'Finance', 'Customer Support', 'Leadership', 'Design'];

/**
 * Seeds the demo into an empty database: Northwind (enterprise, ~250 members over 12 months,
 * groups, one admin per scope, a connected Hub) and a family team. Returns false when teams exist.
 */
export async function seedDemo(db: Db, options: { hubUrl?: string | undefined; hubKey?: string | undefined }): Promise<boolean> {
  const [existing] = await db.query<{ n: number }>('select count(*)::int as n from teams');
  if ((existing?.n ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    // Instances started together on one PostgreSQL server (SEED_DEMO on each) seed one after the
    // other: the second finds the teams and leaves them, instead of failing on their unique slugs.
    await tx.query('lock table teams in exclusive mode');
    const [again] = await tx.query<{ n: number }>('select count(*)::int as n from teams');
    if ((again?.n ?? 0) > 0) return false;
    const northwind = await team(tx, {
      slug: 'northwind',
      name: 'Northwind Traders',
      team_type: 'organization',
      organization_type: 'enterprise',
      valid_till: '2027-06-30',
      // Northwind may grant the family plan to its members (spec §3 Team.benefit.grant_subscription).
      benefit_grant_subscription: 'true',
    });
    const family = await team(tx, {
      slug: 'sam-family',
      name: 'The Okafor Family',
      team_type: 'family',
      organization_type: 'basic',
      valid_till: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10),
      bill_state: 'trial',
    });
    const admins: [string, string, string[], string[]?][] = [
      [DEMO_ADMINS.superAdmin, 'Alex Morgan', ['super_admin']],
      [DEMO_ADMINS.admin, 'Adam Novak', ['admin']],
      [DEMO_ADMINS.integrator, 'Ivy Chen', ['integrator']],
      [DEMO_ADMINS.recoveryAgent, 'Rory Walsh', ['recovery_agent']],
      [DEMO_ADMINS.twoTeams, 'Sam Okafor', ['admin'], ['super_admin']],
    ];
    for (const [email, name, scopes, familyScopes] of admins) {
      const [user] = await tx.query<{ id: string }>(
        'insert into users (email, name, password_hash) values ($1, $2, $3) returning id',
        [email, name, passwordHash],
      );
      await tx.query('insert into team_admins (team_id, user_id, scopes) values ($1, $2, $3)', [northwind, user?.id, scopes]);
      if (familyScopes)
        await tx.query('insert into team_admins (team_id, user_id, scopes) values ($1, $2, $3)', [
          family,
          user?.id,
          familyScopes,
        ]);
    }
    await members(tx, northwind);
    await groups(tx, northwind);
    await seedMembersDemo(tx, northwind, family);

    await seedDevicesDemo(tx, northwind);

    await (await import('../policies/index.ts')).seedPoliciesDemo(tx, northwind, DEMO_ADMINS.superAdmin);

    // The demo Hub, with its audit, sharing and recovery services on.
    // The demo Hub's public key is pinned by `npm start`, which made both keys (no setup key needed).
    if (options.hubUrl && options.hubKey) {
      const active = { enabled: true, status: 2 };
      await tx.query(
        'insert into hubs (team_id, server_url, credential_id, hub_key, hub_version, services) values ($1, $2, $3, $4, $5, $6)',
        [
          northwind,
          options.hubUrl,
          'demo-hub',
          JSON.stringify(Ed25519JwkSchema.parse(JSON.parse(options.hubKey))),
          '2.2.0',
          JSON.stringify({ integration: active, audit: active, audit_logs: active, recovery: active, secret_sharing: active }),
        ],
      );
    }
    return true;
  });
}

async function team(tx: Queryable, t: Record<string, string>): Promise<string> {
  const columns = Object.keys(t);
  const [row] = await tx.query<{ id: string }>(
    `insert into teams (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
    Object.values(t),
  );
  return row?.id as string;
}

/** 250 members who joined over the last 12 months, some since gone, across the four usage states. */
async function members(tx: Queryable, teamId: string): Promise<void> {
  const now = Date.now();
  const rows: unknown[][] = [];
  for (let i = 0; i < 250; i++) {
    const first = FIRST[i % FIRST.length] as string;
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length] as string;
    // More joiners in recent months, as a growing team has.
    const monthsAgo = Math.floor(12 * (1 - Math.sqrt((i + 1) / 250)));
    const onboarded = new Date(now - monthsAgo * 30 * 86_400_000 - (i % 27) * 86_400_000);
    const deboarded = i % 9 === 4 ? new Date(Math.min(now, onboarded.getTime() + (40 + (i % 5) * 25) * 86_400_000)) : null;
    const usage = i % 10 < 6 ? 'active' : i % 10 < 8 ? 'inactive' : 'unresponsive';
    const licensed = i % 12 !== 7;
    rows.push([
      `${first.toLowerCase()}.${last.toLowerCase()}${i >= 275 ? i : ''}@northwind.example`,
      `${first} ${last}`,
      usage,
      licensed,
      onboarded,
      deboarded,
    ]);
  }
  const values = rows.map((_, r) => `($1, ${[2, 3, 4, 5, 6, 7].map((c) => `$${r * 6 + c}`).join(', ')})`).join(', ');
  await tx.query(`insert into members (team_id, email, name, usage, licensed, onboarded_at, deboarded_at) values ${values}`, [
    teamId,
    ...rows.flat(),
  ]);
}

async function groups(tx: Queryable, teamId: string): Promise<void> {
  for (const [index, name] of GROUPS.entries()) {
    const [group] = await tx.query<{ id: string }>('insert into groups (team_id, name) values ($1, $2) returning id', [
      teamId,
      name,
    ]);
    await tx.query(
      `insert into group_members (group_id, member_id)
       select $1, id from members where team_id = $2 and deboarded_at is null and abs(hashtext(email)) % $3 = 0`,
      [group?.id, teamId, index + 2],
    );
  }
}
