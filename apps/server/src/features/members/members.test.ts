import { LicenceSummary, Member } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { assertLicencesAvailable, csvCell } from './members.service.ts';

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  for (const [role, email] of Object.entries(DEMO_ADMINS)) tokens.set(role, (await h.signIn(email)).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(() => h?.close());

const token = (who: string) => tokens.get(who) as string;
const Page = z.object({ results: z.array(Member), next_cursor: z.string().nullable() }).strict();
const members = async (body: Record<string, unknown>, who = 'admin') => {
  const res = await h.post('/api/v1/team/members/', body, token(who));
  expect(res.status, res.text).toBe(200);
  return Page.parse(res.body);
};
const events = (action: string) =>
  h.db.query<{ target_email: string; actor: string }>(
    `select e.target_email, u.email as actor from member_events e join users u on u.id = e.actor_id where e.action = $1 order by e.id`,
    [action],
  );

describe('rules (unit)', () => {
  test('licences are never assigned above those available; unlimited is -1', () => {
    expect(() => assertLicencesAvailable(10, 8, 2)).not.toThrow();
    expect(() => assertLicencesAvailable(10, 8, 3)).toThrow(/2 available/);
    expect(() => assertLicencesAvailable(10, 12, 1)).toThrow(/0 available/);
    expect(() => assertLicencesAvailable(-1, 10_000, 500)).not.toThrow();
  });
  test('CSV cells are quoted and formulas neutralised', () => {
    expect(csvCell('a"b')).toBe('"a""b"');
    expect(csvCell('=SUM(A1)')).toBe(`"'=SUM(A1)"`);
  });
});

describe('access', () => {
  test('integrators and recovery agents cannot read people data', async () => {
    for (const who of ['integrator', 'recoveryAgent']) {
      for (const path of ['/api/v1/dashboard/stats/activity/', '/api/v1/team/members/', '/api/v1/team/members/remove/']) {
        const res = await h.post(path, { emails: ['x@y.example'] }, token(who));
        expect(res.status, `${who} ${path}`).toBe(403);
      }
    }
    expect((await h.post('/api/v1/team/members/', {})).status).toBe(401);
  });
});

describe('members list', () => {
  test('keyset pages of 10 by email cover every current member once', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 40; i++) {
      const page = await members({ after });
      expect(page.results.length).toBeLessThanOrEqual(10);
      seen.push(...page.results.map((m) => m.email));
      after = page.next_cursor;
      if (!after) break;
    }
    const total = (await h.post('/api/v1/team/members/count/', {}, token('admin'))).body.total;
    expect(seen).toHaveLength(total as number);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort());
  });

  test('substring search over email and name, wildcards taken literally', async () => {
    const page = await members({ search_value: 'ERIKS' });
    expect(page.results.length).toBeGreaterThan(0);
    for (const m of page.results) expect(`${m.email} ${m.name}`.toLowerCase()).toContain('eriks');
    expect((await members({ search_value: '%' })).results).toEqual([]);
  });

  test('filters: licence status and app usage', async () => {
    const unlicensed = await members({ license_status: ['unlicensed'], page_size: 100 });
    expect(unlicensed.results.length).toBeGreaterThan(0);
    expect(unlicensed.results.every((m) => !m.licensed)).toBe(true);
    const usage = await members({ app_usage: ['inactive'], page_size: 100 });
    expect(usage.results.every((m) => m.usage === 'inactive')).toBe(true);
    const count = await h.post('/api/v1/team/members/count/', { app_usage: ['inactive'] }, token('admin'));
    const stats = await h.post('/api/v1/dashboard/stats/activity/', {}, token('admin'));
    expect(count.body.total).toBe(stats.body.inactive_members);
  });

  test('page size is bounded', async () => {
    const res = await h.post('/api/v1/team/members/', { page_size: 1000 }, token('admin'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input' });
  });

  test('filter: Hub authentication (with a connected Hub), alone and with a search', async () => {
    const [team] = await h.db.query<{ id: string }>("select id from teams where slug = 'northwind'");
    await h.db.query(
      `insert into hubs (team_id, server_url, credential_id, hub_key, name, services)
       values ($1, 'https://hub.members-test.example/', 'members-test-credential', '{}', 'Members test', $2)`,
      [team?.id, JSON.stringify({ integration: { enabled: true, status: 2 } })],
    );
    try {
      const { token: hub } = await h.signIn(DEMO_ADMINS.admin);
      const list = async (filters: Record<string, unknown>) => {
        const seen: string[] = [];
        let after: string | null = null;
        do {
          const res = await h.post('/api/v1/team/members/', { ...filters, after, page_size: 100 }, hub.access);
          expect(res.status, res.text).toBe(200);
          const page = Page.parse(res.body);
          seen.push(...page.results.map((m) => m.email));
          after = page.next_cursor;
        } while (after);
        const count = await h.post('/api/v1/team/members/count/', filters, hub.access);
        expect(count.body.total).toBe(seen.length);
        return seen;
      };
      const expected = async (authenticated: boolean, search = '') =>
        (
          await h.db.query<{ email: string }>(
            `select email from members m where team_id = $1 and deboarded_at is null and search_text like '%' || $3 || '%'
               and $2 = exists (select 1 from member_devices d where d.member_id = m.id and d.hub_authenticated_at is not null)
             order by email`,
            [team?.id, authenticated, search],
          )
        ).map((r) => r.email);
      const authenticated = await list({ hub_authentication: 'authenticated' });
      expect(authenticated.length).toBeGreaterThan(0);
      expect(authenticated).toEqual(await expected(true));
      const not = await list({ hub_authentication: 'not_authenticated' });
      expect(not.length).toBeGreaterThan(0);
      expect(not).toEqual(await expected(false));
      expect(await list({ hub_authentication: 'authenticated', search_value: 'northwind' })).toEqual(
        await expected(true, 'northwind'),
      );
    } finally {
      await h.db.query("delete from hubs where credential_id = 'members-test-credential'");
    }
  });

  test('export CSV has a header and every matching member', async () => {
    const res = await h.post('/api/v1/team/members/export/', { app_usage: ['unresponsive'] }, token('admin'));
    const body = res.body as { csv: string; count: number };
    const lines = body.csv.trim().split('\r\n');
    expect(lines[0]).toBe('email,name,status,licensed,app_usage,onboarded_at,last_active_at');
    expect(lines).toHaveLength(body.count + 1);
    expect((await events('members_exported')).at(-1)?.actor).toBe(DEMO_ADMINS.admin);
  });
});

describe('member actions', () => {
  test('invite: new members are invited, licensed and mailed; duplicates refused', async () => {
    const res = await h.post(
      '/api/v1/team/members/invite/',
      { emails: [' New.One@Northwind.example', 'new.two@northwind.example', 'new.two@northwind.example'] },
      token('admin'),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ invited: ['new.one@northwind.example', 'new.two@northwind.example'] });
    const page = await members({ search_value: 'new.' });
    expect(page.results.map((m) => [m.email, m.status, m.licensed])).toEqual([
      ['new.one@northwind.example', 'invited', true],
      ['new.two@northwind.example', 'invited', true],
    ]);
    await expect.poll(() => h.mail.filter((m) => m.to.includes('new.one@northwind.example')).length).toBe(1);
    expect((await events('member_invited')).map((e) => e.target_email)).toEqual([
      'new.one@northwind.example',
      'new.two@northwind.example',
    ]);
    const again = await h.post('/api/v1/team/members/invite/', { emails: ['new.one@northwind.example'] }, token('admin'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'member_already_exists',
      message_key: 'errors.already_members',
      message_values: { emails: 'new.one@northwind.example' },
    });
    const bad = await h.post('/api/v1/team/members/invite/', { emails: ['not-an-email'] }, token('admin'));
    expect(bad.body).toMatchObject({ code: 'invalid_input', description: 'loginpage.enter_valid_email' });
  });

  test('invite while the mail server refuses: 200, the members are invited, and the mail arrives after a retry', async () => {
    h.smtp.refuseNext(2);
    const refusedBefore = h.smtp.refused;
    const res = await h.post('/api/v1/team/members/invite/', { emails: ['retry.one@northwind.example'] }, token('admin'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ invited: ['retry.one@northwind.example'] });
    const page = await members({ search_value: 'retry.one', page_size: 10 });
    expect(page.results.map((m) => [m.email, m.status])).toEqual([['retry.one@northwind.example', 'invited']]);
    // Refused twice (retries after 1–2 s, then 2–4 s), then delivered once.
    const received = await h.smtp.waitFor('retry.one@northwind.example', 1, 20_000);
    expect(received).toHaveLength(1);
    expect(h.smtp.refused - refusedBefore).toBe(2);
    expect(received[0]?.raw).toContain("You're invited to");
  });

  test('resend only to invited members', async () => {
    const ok = await h.post('/api/v1/team/members/invite/resend/', { emails: ['new.one@northwind.example'] }, token('admin'));
    expect(ok.body).toEqual({ code: 'updated' });
    await expect.poll(() => h.mail.filter((m) => m.to.includes('new.one@northwind.example')).length).toBe(2);
    const [joined] = (await members({ app_usage: ['active'] })).results;
    const refused = await h.post('/api/v1/team/members/invite/resend/', { emails: [joined?.email] }, token('admin'));
    expect(refused.status).toBe(400);
    expect((await events('member_invitation_resent')).length).toBe(1);
  });

  test('licences: revoke frees one, assign never goes above those available', async () => {
    const summary = async () =>
      LicenceSummary.parse((await h.post('/api/v1/dashboard/stats/licence/summary/', {}, token('admin'))).body);
    const before = await summary();
    const free = before.total_subscriptions - before.active_subscriptions;
    const unlicensed = (await members({ license_status: ['unlicensed'], page_size: 100 })).results.map((m) => m.email);
    expect(unlicensed.length).toBeGreaterThan(free + 1);
    const tooMany = await h.post(
      '/api/v1/team/members/licence/update/',
      { emails: unlicensed.slice(0, free + 1), action: 'assign' },
      token('admin'),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: 'licence_limit_exceeded' });
    expect((await summary()).active_subscriptions).toBe(before.active_subscriptions);
    const fits = await h.post(
      '/api/v1/team/members/licence/update/',
      { emails: unlicensed.slice(0, free), action: 'assign' },
      token('admin'),
    );
    expect(fits.status, fits.text).toBe(200);
    expect(await summary()).toEqual({ ...before, active_subscriptions: before.total_subscriptions });
    const revoke = await h.post(
      '/api/v1/team/members/licence/update/',
      { emails: [unlicensed[0]], action: 'revoke' },
      token('admin'),
    );
    expect(revoke.status).toBe(200);
    expect((await summary()).active_subscriptions).toBe(before.total_subscriptions - 1);
    expect((await events('licence_assigned')).length).toBe(free);
    expect((await events('licence_revoked')).map((e) => e.target_email)).toEqual([unlicensed[0]]);
  });

  test('concurrent assignments cannot both take the last licence', async () => {
    const unlicensed = (await members({ license_status: ['unlicensed'], page_size: 100 })).results.map((m) => m.email);
    const results = await Promise.all(
      unlicensed
        .slice(0, 4)
        .map((email) => h.post('/api/v1/team/members/licence/update/', { emails: [email], action: 'assign' }, token('admin'))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const summary = LicenceSummary.parse((await h.post('/api/v1/dashboard/stats/licence/summary/', {}, token('admin'))).body);
    expect(summary.active_subscriptions).toBe(summary.total_subscriptions);
  });

  test('suspend and restore', async () => {
    const [m] = (await members({ app_usage: ['active'] })).results;
    const email = m?.email as string;
    const suspend = await h.post('/api/v1/team/members/status/update/', { emails: [email], action: 'suspend' }, token('admin'));
    expect(suspend.status).toBe(200);
    expect((await members({ search_value: email })).results[0]?.status).toBe('suspended');
    await h.post('/api/v1/team/members/status/update/', { emails: [email], action: 'restore' }, token('admin'));
    expect((await members({ search_value: email })).results[0]?.status).toBe('active');
    expect((await events('member_suspended')).map((e) => e.target_email)).toEqual([email]);
    expect((await events('member_restored')).map((e) => e.target_email)).toEqual([email]);
  });

  test('remove: unknown emails refuse the whole request; removed members leave the list', async () => {
    const unknown = await h.post(
      '/api/v1/team/members/remove/',
      { emails: ['new.two@northwind.example', 'ghost@northwind.example'] },
      token('admin'),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'member_not_found' });
    expect((await members({ search_value: 'new.two' })).results).toHaveLength(1);
    const ok = await h.post('/api/v1/team/members/remove/', { emails: ['new.two@northwind.example'] }, token('superAdmin'));
    expect(ok.status).toBe(200);
    expect((await members({ search_value: 'new.two' })).results).toHaveLength(0);
    expect((await events('member_removed')).map((e) => e.actor)).toEqual([DEMO_ADMINS.superAdmin]);
    // A removed member can be invited back.
    const back = await h.post('/api/v1/team/members/invite/', { emails: ['new.two@northwind.example'] }, token('admin'));
    expect(back.status === 200 || (back.body as { code: string }).code === 'licence_limit_exceeded').toBe(true);
  });

  test('licences nearly used: said once when an assignment reaches 95 %, not again above it, again after falling below', async () => {
    // The team as the test wants it: 18 of 20 licences in use (90 %).
    const current = (await members({ page_size: 100 })).results.filter((m) => m.status !== 'invited').map((m) => m.email);
    expect(current.length).toBeGreaterThanOrEqual(20);
    const [team] = await h.db.query<{ id: string }>('select team_id as id from members where email = $1', [current[0]]);
    const teamId = team?.id as string;
    await h.db.query('update teams set total_licences = 20 where id = $1', [teamId]);
    await h.db.query('update members set licensed = (email = any($2::text[])) where team_id = $1', [
      teamId,
      current.slice(0, 18),
    ]);
    const notices = () =>
      h.db.query<{ detail: { used: number; total: number } }>(
        `select event->'detail' as detail from event_outbox
          where team_id = $1 and event->>'activity' = 'billing.licences_nearly_used' order by seq`,
        [teamId],
      );
    const before = (await notices()).length;
    const assign = async (emails: string[], action = 'assign') => {
      const res = await h.post('/api/v1/team/members/licence/update/', { emails, action }, token('admin'));
      expect(res.status, res.text).toBe(200);
    };
    await assign([current[18] as string]);
    expect((await notices()).slice(before).map((n) => n.detail)).toEqual([{ used: 19, total: 20 }]);
    await assign([current[19] as string]);
    expect((await notices()).length).toBe(before + 1);
    await assign(current.slice(18, 20), 'revoke');
    await assign([current[19] as string]);
    expect((await notices()).slice(before).map((n) => n.detail)).toEqual([
      { used: 19, total: 20 },
      { used: 19, total: 20 },
    ]);
  });
});
