import { describe, expect, test } from 'vitest';
import { type Json, scimWorld, user } from '../../test/scim-world.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

const { w, scim } = scimWorld();

describe('SCIM Users', () => {
  test('create, read, filter, PATCH (Entra forms), PUT, deactivate, delete — as the console does', async () => {
    const created = await scim('POST', '/Users', user('Grace.Hopper@Northwind.example', { externalId: 'gh-1' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('content-type')).toContain('application/scim+json');
    expect(created.headers.get('etag')).toBe(created.body.meta.version);
    const id = created.body.id as string;
    // userName comes back as sent (RFC 7643 §2.1: values are returned as given; caseExact false only
    // governs comparison); the member's email is the address, lower-cased.
    expect(created.body).toMatchObject({ userName: 'Grace.Hopper@Northwind.example', active: true, externalId: 'gh-1' });
    const [member] = await w.h.db.query<{ status: string; licensed: boolean; name: string; email: string }>(
      'select status, licensed, name, email from members where id = $1',
      [id],
    );
    expect(member).toEqual({ status: 'invited', licensed: true, name: 'Test User', email: 'grace.hopper@northwind.example' });

    const dupe = await scim('POST', '/Users', user('grace.hopper@northwind.example'));
    expect(dupe.status).toBe(409);
    expect(dupe.body.scimType).toBe('uniqueness');

    // Entra: userName eq, case-insensitive (caseExact false).
    const found = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "GRACE.HOPPER@northwind.example"')}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    const byExternal = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "GH-1"')}`);
    expect(byExternal.body.totalResults).toBe(0); // externalId is caseExact
    const complex = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('not (userName sw "a" or userName sw "b") and name.givenName eq "test" and emails[type eq "work" and value co "hopper"]')}&attributes=userName`,
    );
    expect(complex.body.Resources.map((r: Json) => r.id)).toContain(id);
    expect(Object.keys(complex.body.Resources[0]).sort()).toEqual(['id', 'schemas', 'userName']);

    // Entra PATCH: capitalised ops, string booleans, filtered path, enterprise extension.
    const patched = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Grace Hopper' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: 'grace.hopper@northwind.example' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Navy' },
        { op: 'Replace', path: 'active', value: 'False' },
      ],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.active).toBe(false);
    expect(patched.body['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: 'Navy' });
    expect(patched.body.schemas).toContain('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User');
    const [suspended] = await w.h.db.query<{ status: string; name: string }>('select status, name from members where id = $1', [
      id,
    ]);
    expect(suspended).toEqual({ status: 'suspended', name: 'Grace Hopper' });

    // ETag: a stale If-Match is refused, the current one accepted.
    const stale = await scim('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', value: { active: true } }] }, w.scimToken, {
      'if-match': created.body.meta.version,
    });
    expect(stale.status).toBe(412);
    const restored = await scim(
      'PATCH',
      `/Users/${id}`,
      { Operations: [{ op: 'replace', value: { active: true } }] },
      w.scimToken,
      {
        'if-match': patched.body.meta.version,
      },
    );
    expect(restored.body.active).toBe(true);
    // Restored to what the suspension ended: invited, as this member never joined.
    const [invited] = await w.h.db.query<{ status: string }>('select status from members where id = $1', [id]);
    expect(invited?.status).toBe('invited');

    // The member joins (in the apps); a console suspend moves the version too: the IdP's stale If-Match is refused.
    await w.h.db.query(`update members set status = 'active' where id = $1`, [id]);
    const before = (await scim('GET', `/Users/${id}`)).body.meta.version;
    const suspend = await w.h.post(
      '/api/v1/team/members/status/update/',
      { emails: ['grace.hopper@northwind.example'], action: 'suspend' },
      w.tokens.get('admin'),
    );
    expect(suspend.status, suspend.text).toBe(200);
    const afterSuspend = await scim('GET', `/Users/${id}`);
    expect(afterSuspend.body.active).toBe(false);
    expect(afterSuspend.body.meta.version).not.toBe(before);
    const staleAgain = await scim(
      'PATCH',
      `/Users/${id}`,
      { Operations: [{ op: 'replace', value: { active: true } }] },
      w.scimToken,
      {
        'if-match': before,
      },
    );
    expect(staleAgain.status).toBe(412);

    const put = await scim(
      'PUT',
      `/Users/${id}`,
      user('grace.hopper@northwind.example', { displayName: 'Rear Admiral Hopper', active: 'true' }),
    );
    expect(put.status).toBe(200);
    expect(put.body.displayName).toBe('Rear Admiral Hopper');
    expect(put.body['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toBeUndefined();

    const del = await scim('DELETE', `/Users/${id}`);
    expect(del.status).toBe(204);
    const [gone] = await w.h.db.query<{ deboarded: boolean; licensed: boolean }>(
      'select deboarded_at is not null as deboarded, licensed from members where id = $1',
      [id],
    );
    expect(gone).toEqual({ deboarded: true, licensed: false });
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404);

    const events = await w.h.db.query<{ action: string; actor_id: string | null; detail: Json }>(
      `select action, actor_id, detail from member_events where target_email = 'grace.hopper@northwind.example' order by id`,
    );
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['member_invited', 'member_suspended', 'member_restored', 'member_removed']),
    );
    // Every change but the console's own suspend is the connector's: no admin, actor type SCIM.
    const [consoleSuspend, ...others] = [
      ...events.filter((e) => e.actor_id !== null),
      ...events.filter((e) => e.actor_id === null),
    ];
    expect(consoleSuspend).toMatchObject({ action: 'member_suspended', detail: {} });
    expect(others.length).toBeGreaterThanOrEqual(5);
    expect(others.every((e) => e.detail.actor_type === 'scim' && e.detail.connector === w.connectorId)).toBe(true);
  });

  test("renaming a user to a former member's email is a SCIM uniqueness error, not a failure", async () => {
    const a = await scim('POST', '/Users', user('former.one@northwind.example'));
    const b = await scim('POST', '/Users', user('former.two@northwind.example'));
    expect((await scim('DELETE', `/Users/${a.body.id}`)).status).toBe(204);
    const res = await scim('PATCH', `/Users/${b.body.id}`, {
      Operations: [{ op: 'replace', path: 'userName', value: 'former.one@northwind.example' }],
    });
    expect(res.status).toBe(409);
    expect(res.body.scimType).toBe('uniqueness');
  });

  test("userName is any text, echoed as sent and unique without case; the member's email comes from emails, else userName", async () => {
    // Entra's default userName is the user principal name, not always an address: with no address
    // anywhere there is no one to invite.
    const nowhere = await scim('POST', '/Users', user('Test_User_6f1c8b2e-90ab-4cde-8f01-23456789abcd'));
    expect(nowhere.status).toBe(400);
    expect(nowhere.body).toMatchObject({ scimType: 'invalidValue', detail: expect.stringMatching(/email address/) });
    const spaces = await scim('POST', '/Users', user('   ', { emails: [{ value: 'spaces@northwind.example' }] }));
    expect(spaces.status).toBe(400);

    // The primary email, before the work one, before userName.
    const a = await scim(
      'POST',
      '/Users',
      user('Test_User_AB12', {
        emails: [
          { type: 'home', value: 'home.ab@northwind.example' },
          { type: 'work', value: 'Work.AB@northwind.example' },
          { type: 'other', value: 'Primary.AB@northwind.example', primary: 'True' },
        ],
      }),
    );
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body.userName).toBe('Test_User_AB12');
    const emailOf = async (id: string) =>
      (await w.h.db.query<{ email: string }>('select email from members where id = $1', [id]))[0]?.email;
    expect(await emailOf(a.body.id)).toBe('primary.ab@northwind.example');
    const work = await scim(
      'POST',
      '/Users',
      user('Work_Only', { emails: [{ type: 'Work', value: 'work.only@northwind.example' }] }),
    );
    expect(await emailOf(work.body.id)).toBe('work.only@northwind.example');
    const plain = await scim('POST', '/Users', user('Plain.User@Northwind.example'));
    expect(await emailOf(plain.body.id)).toBe('plain.user@northwind.example');
    expect(plain.body.userName).toBe('Plain.User@Northwind.example');
    const untyped = await scim('POST', '/Users', user('Untyped_Only', { emails: [{ value: 'untyped@northwind.example' }] }));
    expect(await emailOf(untyped.body.id)).toBe('untyped@northwind.example');

    // Unique without case (RFC 7643: caseExact false), whatever the email; a console member's
    // userName is its email.
    const twin = await scim('POST', '/Users', user('TEST_USER_ab12', { emails: [{ value: 'twin@northwind.example' }] }));
    expect(twin.status).toBe(409);
    expect(twin.body.scimType).toBe('uniqueness');
    const [invitedInConsole] = await w.h.db.query<{ email: string }>(
      `select m.email from members m join teams t on t.id = m.team_id
       where t.slug = 'northwind' and m.deboarded_at is null and m.scim_user_name is null limit 1`,
    );
    const consoleTwin = await scim(
      'POST',
      '/Users',
      user(String(invitedInConsole?.email).toUpperCase(), {
        emails: [{ primary: true, value: 'console.twin@northwind.example' }],
      }),
    );
    expect(consoleTwin.status).toBe(409);
    const rename = await scim('PATCH', `/Users/${work.body.id}`, {
      Operations: [{ op: 'replace', path: 'userName', value: 'test_user_ab12' }],
    });
    expect(rename.status).toBe(409);
    expect(rename.body.scimType).toBe('uniqueness');
    const ownCase = await scim('PATCH', `/Users/${a.body.id}`, {
      Operations: [{ op: 'replace', path: 'userName', value: 'TEST_user_ab12' }],
    });
    expect(ownCase.status).toBe(200);
    expect(ownCase.body.userName).toBe('TEST_user_ab12');
    expect(await emailOf(a.body.id)).toBe('primary.ab@northwind.example');

    // Found by userName without case, and by the work email as Entra asks.
    const byName = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "test_USER_AB12"')}`);
    expect(byName.body.Resources.map((r: Json) => [r.id, r.userName])).toEqual([[a.body.id, 'TEST_user_ab12']]);
    const byWork = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('emails[type eq "work"].value eq "work.ab@NORTHWIND.example"')}`,
    );
    expect(byWork.body.Resources.map((r: Json) => r.id)).toEqual([a.body.id]);
    const notHome = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('emails[type eq "home"].value eq "work.ab@northwind.example"')}`,
    );
    expect(notHome.body.totalResults).toBe(0);

    // Free again once its member is removed.
    expect((await scim('DELETE', `/Users/${a.body.id}`)).status).toBe(204);
    const again = await scim(
      'POST',
      '/Users',
      user('test_user_AB12', { emails: [{ primary: true, value: 'again@northwind.example' }] }),
    );
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  test('a member the console invited keeps its email when the identity provider renames it to a user principal name', async () => {
    const [member] = await w.h.db.query<{ id: string; email: string }>(
      `select m.id, m.email from members m join teams t on t.id = m.team_id
       where t.slug = 'northwind' and m.deboarded_at is null and m.scim_user_name is null and m.scim_attributes = '{}'
         and not exists (select 1 from users u join team_admins ta on ta.user_id = u.id where lower(u.email) = m.email)
       order by m.email limit 1`,
    );
    const renamed = await scim('PATCH', `/Users/${member?.id}`, {
      Operations: [{ op: 'Replace', path: 'userName', value: 'Console_Member_UPN' }],
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.userName).toBe('Console_Member_UPN');
    expect(renamed.body.emails).toEqual([{ value: member?.email, type: 'work', primary: true }]);
    const [after] = await w.h.db.query<{ email: string }>('select email from members where id = $1', [member?.id]);
    expect(after?.email).toBe(member?.email);
  });

  test('a restore returns the member to the status its suspension ended: invited stays invited', async () => {
    const created = await scim('POST', '/Users', user('never.joined@northwind.example'));
    const id = created.body.id as string;
    const statusOf = async () =>
      (await w.h.db.query<{ status: string }>('select status from members where id = $1', [id]))[0]?.status;
    const setActive = (active: boolean) =>
      scim('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'active', value: active }] });
    expect((await setActive(false)).body.active).toBe(false);
    expect(await statusOf()).toBe('suspended');
    expect((await setActive(true)).body.active).toBe(true);
    expect(await statusOf()).toBe('invited');

    // Suspended by SCIM, restored in the console: the same.
    await setActive(false);
    const restore = await w.h.post(
      '/api/v1/team/members/status/update/',
      { emails: ['never.joined@northwind.example'], action: 'restore' },
      w.tokens.get('admin'),
    );
    expect(restore.status, restore.text).toBe(200);
    expect(await statusOf()).toBe('invited');

    // Once joined, a restore makes them active again; by PUT as by PATCH.
    await w.h.db.query(`update members set status = 'active' where id = $1`, [id]);
    const off = await scim('PUT', `/Users/${id}`, user('never.joined@northwind.example', { active: false }));
    expect(off.body.active).toBe(false);
    const on = await scim('PUT', `/Users/${id}`, user('never.joined@northwind.example', { active: true }));
    expect(on.body.active).toBe(true);
    expect(await statusOf()).toBe('active');
  });

  test('admins are never deactivated or removed by SCIM', async () => {
    const [admin] = await w.h.db.query<{ id: string }>(
      `insert into members (team_id, email, name) select id, $1, 'Adam' from teams where slug = 'northwind'
       on conflict (team_id, email) do update set deboarded_at = null returning id`,
      [DEMO_ADMINS.admin],
    );
    const off = await scim('PATCH', `/Users/${admin?.id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(off.status).toBe(403);
    expect((await scim('DELETE', `/Users/${admin?.id}`)).status).toBe(403);
    const [still] = await w.h.db.query<{ status: string; deboarded_at: Date | null }>(
      'select status, deboarded_at from members where id = $1',
      [admin?.id],
    );
    expect(still).toEqual({ status: 'active', deboarded_at: null });
  });

  test('licences: a clear SCIM error when none remain, nothing written', async () => {
    const [used] = await w.h.db.query<{ n: number }>(
      `select count(*)::int as n from members m join teams t on t.id = m.team_id where t.slug = 'northwind' and m.deboarded_at is null and m.licensed`,
    );
    await w.h.db.query(`update teams set total_licences = $1 where slug = 'northwind'`, [used?.n]);
    try {
      const res = await scim('POST', '/Users', user('no.licence@northwind.example'));
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/No licence left/);
      expect(await w.h.db.query(`select 1 from members where email = 'no.licence@northwind.example'`)).toEqual([]);
    } finally {
      await w.h.db.query(`update teams set total_licences = -1 where slug = 'northwind'`);
    }
  });

  test('bad input answers SCIM errors with scimType, never 500', async () => {
    const cases: [string, string, unknown, number, string?][] = [
      ['GET', `/Users?filter=${encodeURIComponent('userName eq "x" or or')}`, undefined, 400, 'invalidFilter'],
      ['GET', '/Users?filter=not', undefined, 400, 'invalidFilter'],
      ['GET', '/Users?filter=pr', undefined, 400, 'invalidFilter'],
      ['GET', '/Users?filter=and', undefined, 400, 'invalidFilter'],
      ['POST', '/Users', { schemas: null, userName: 'schemas.null@northwind.example' }, 201],
      ['POST', '/Users', { schemas: 'x', userName: 'a@b.example' }, 400, 'invalidSyntax'],
      // Any userName is taken, but a member needs an address to be invited at.
      ['POST', '/Users', { userName: 'not an email' }, 400, 'invalidValue'],
      ['POST', '/Users', '{"userName":', 400, 'invalidSyntax'],
      ['PATCH', '/Users/00000000-0000-4000-8000-000000000000', { Operations: [] }, 404],
      ['GET', '/Users/not-a-uuid', undefined, 404],
      ['GET', '/Users?startIndex=abc', undefined, 400, 'invalidValue'],
    ];
    for (const [method, path, body, status, scimType] of cases) {
      const res = await scim(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBe(status);
      if (scimType) expect(res.body.scimType).toBe(scimType);
      if (status >= 400) expect(res.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    }
  });

  test('paging, sorting and the discovery endpoints', async () => {
    const page = await scim('GET', '/Users?startIndex=3&count=2&sortBy=userName&sortOrder=descending');
    expect(page.body.startIndex).toBe(3);
    expect(page.body.itemsPerPage).toBe(2);
    const all = await scim('GET', '/Users?sortBy=userName&sortOrder=descending&count=1000&attributes=userName');
    const names = all.body.Resources.map((r: Json) => r.userName);
    // userName is caseExact false: sorted without case.
    const lower = (n: string) => n.toLowerCase();
    expect(names).toEqual([...names].sort((a, b) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0)).reverse());
    expect(page.body.Resources.map((r: Json) => r.userName)).toEqual(names.slice(2, 4));
    expect((await scim('GET', '/ServiceProviderConfig')).body).toMatchObject({
      patch: { supported: true },
      etag: { supported: true },
    });
    expect((await scim('GET', '/Schemas')).body.totalResults).toBe(3);
    expect((await scim('GET', '/ResourceTypes')).body.Resources.map((r: Json) => r.id)).toEqual(['User', 'Group']);
  });
});

// Last: it reads the requests the tests above made (an invalid filter among them).
describe('the request log', () => {
  test('the request log shows method, path, status, duration and error', async () => {
    const res = await w.h.post<{ results: Json[]; count: number }>(
      '/api/v1/team/scim/connector/requests/',
      { id: w.connectorId },
      w.tokens.get('superAdmin'),
    );
    expect(res.status).toBe(200);
    expect(res.body.count).toBeGreaterThan(10);
    expect(res.body.results[0]).toMatchObject({ method: expect.any(String), path: expect.stringMatching(/^\/scim\/v2\//) });
    const errors = await w.h.db.query<{ error: string }>(
      `select error from scim_requests where connector_id = $1 and status = 400 and error like 'invalidFilter%'`,
      [w.connectorId],
    );
    expect(errors.length).toBeGreaterThan(0);
    const listed = await w.h.post<{ results: Json[] }>('/api/v1/team/scim/connectors/', {}, w.tokens.get('superAdmin'));
    expect(listed.body.results.find((c) => c.id === w.connectorId)?.last_request_at).not.toBeNull();
  });
});
