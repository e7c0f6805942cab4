import { describe, expect, test } from 'vitest';
import { type Json, scimWorld, user } from '../../test/scim-world.ts';

const { w, scim } = scimWorld();

describe('SCIM connectors in the console', () => {
  test('create shows the token once; the list never does; rotate keeps the old one for the overlap; revoke ends both', async () => {
    const list = await w.h.post<{ results: Json[]; tenant_url: string }>(
      '/api/v1/team/scim/connectors/',
      {},
      w.tokens.get('superAdmin'),
    );
    expect(list.status).toBe(200);
    expect(list.body.tenant_url).toBe(`${w.h.url}/scim/v2`);
    expect(list.text).not.toContain(w.scimToken);
    expect(list.body.results.find((c) => c.id === w.connectorId)).toMatchObject({
      idp: 'entra',
      token_hint: w.scimToken.slice(-4),
    });
    const [stored] = await w.h.db.query<{ token_hash: string }>('select token_hash from scim_connectors where id = $1', [
      w.connectorId,
    ]);
    expect(stored?.token_hash).not.toContain(w.scimToken);

    const extra = await w.h.post<{ token: string; connector: Json }>(
      '/api/v1/team/scim/connector/create/',
      { idp: 'okta', name: 'Okta' },
      w.tokens.get('superAdmin'),
    );
    const old = extra.body.token;
    expect((await scim('GET', '/ServiceProviderConfig', undefined, old)).status).toBe(200);
    const rotated = await w.h.post<{ token: string; connector: Json }>(
      '/api/v1/team/scim/connector/rotate/',
      { id: extra.body.connector.id, overlap_hours: 1 },
      w.tokens.get('superAdmin'),
    );
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.connector.previous_valid_until).not.toBeNull();
    expect((await scim('GET', '/ServiceProviderConfig', undefined, old)).status).toBe(200);
    expect((await scim('GET', '/ServiceProviderConfig', undefined, rotated.body.token)).status).toBe(200);
    const now = await w.h.post<{ token: string }>(
      '/api/v1/team/scim/connector/rotate/',
      { id: extra.body.connector.id, overlap_hours: 0 },
      w.tokens.get('superAdmin'),
    );
    expect((await scim('GET', '/ServiceProviderConfig', undefined, rotated.body.token)).status).toBe(401);
    expect((await scim('GET', '/ServiceProviderConfig', undefined, old)).status).toBe(401);
    const revoke = await w.h.post(
      '/api/v1/team/scim/connector/revoke/',
      { id: extra.body.connector.id },
      w.tokens.get('superAdmin'),
    );
    expect(revoke.body).toEqual({ code: 'updated' });
    const refused = await scim('GET', '/Users', undefined, now.body.token);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
  });

  test('only the super admin of an enterprise, standard or starter organisation; an unknown id is 404', async () => {
    for (const who of ['admin', 'integrator', 'recoveryAgent']) {
      const res = await w.h.post('/api/v1/team/scim/connectors/', {}, w.tokens.get(who));
      expect(res.status, who).toBe(403);
    }
    await w.h.db.query(`update teams set organization_type = 'basic' where slug = 'northwind'`);
    try {
      const res = await w.h.post('/api/v1/team/scim/connectors/', {}, w.tokens.get('superAdmin'));
      expect(res.status).toBe(403);
    } finally {
      await w.h.db.query(`update teams set organization_type = 'enterprise' where slug = 'northwind'`);
    }
    const missing = await w.h.post(
      '/api/v1/team/scim/connector/requests/',
      { id: '00000000-0000-4000-8000-000000000000' },
      w.tokens.get('superAdmin'),
    );
    expect(missing.status).toBe(404);
    const bad = await w.h.post('/api/v1/team/scim/connector/create/', { idp: 'myspace', name: 'x' }, w.tokens.get('superAdmin'));
    expect(bad.status).toBe(400);
  });
});

describe('SCIM Groups', () => {
  test('POST and PUT honour members; PATCH add/remove (Entra $ref null, Okta filter); read-only in the console', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await scim('POST', '/Users', user(`crew${n}@northwind.example`))).body.id);
    const created = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'SCIM Crew',
      externalId: 'okta-crew',
      members: [{ value: ids[0] }, { value: ids[1] }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const gid = created.body.id as string;
    expect(created.body.members.map((m: Json) => m.value).sort()).toEqual([ids[0], ids[1]].sort());

    const put = await scim('PUT', `/Groups/${gid}`, { displayName: 'SCIM Crew', members: [{ value: ids[2] }] });
    expect(put.body.members.map((m: Json) => m.value)).toEqual([ids[2]]);

    const add = await scim('PATCH', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: ids[0] }, { value: ids[1] }] }],
    });
    expect(add.status).toBe(204);
    const entraRemove = await scim('PATCH', `/Groups/${gid}`, {
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: ids[0] }] }],
    });
    expect(entraRemove.status).toBe(204);
    const oktaRemove = await scim('PATCH', `/Groups/${gid}`, {
      Operations: [{ op: 'remove', path: `members[value eq "${ids[1]}"]` }],
    });
    expect(oktaRemove.status).toBe(204);
    const read = await scim('GET', `/Groups/${gid}`);
    expect(read.body.members.map((m: Json) => m.value)).toEqual([ids[2]]);
    const noMembers = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "scim crew"')}&excludedAttributes=members`,
    );
    expect(noMembers.body.totalResults).toBe(1);
    expect(noMembers.body.Resources[0].members).toBeUndefined();
    const unknown = await scim('PATCH', `/Groups/${gid}`, {
      Operations: [{ op: 'add', path: 'members', value: [{ value: '00000000-0000-4000-8000-000000000000' }] }],
    });
    expect(unknown.status).toBe(400);

    // The console sees it, marked, and may not edit it.
    const detail = await w.h.post('/api/v1/team/group/', { id: gid }, w.tokens.get('admin'));
    expect(detail.body).toMatchObject({ name: 'SCIM Crew', scim_managed: true, member_count: 1 });
    for (const [path, body] of [
      ['/api/v1/team/group/edit/', { id: gid, name: 'Mine' }],
      ['/api/v1/team/group/remove/', { id: [gid] }],
      ['/api/v1/team/group/members/add/', { id: gid, emails: ['crew1@northwind.example'] }],
      ['/api/v1/team/group/members/remove/', { id: gid, emails: ['crew3@northwind.example'] }],
    ] as const) {
      const res = await w.h.post(path, body, w.tokens.get('admin'));
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({ message_key: 'errors.group_scim_managed' });
    }

    const del = await scim('DELETE', `/Groups/${gid}`);
    expect(del.status).toBe(204);
    expect((await scim('GET', `/Groups/${gid}`)).status).toBe(404);
  });

  test('a token never reaches another team', async () => {
    const other = await w.h.post<{ token: string; connector: Json }>(
      '/api/v1/team/scim/connector/create/',
      { idp: 'generic', name: 'Elsewhere' },
      w.tokens.get('superAdmin'),
    );
    await w.h.db.query(`update scim_connectors set team_id = (select id from teams where slug = 'sam-family') where id = $1`, [
      other.body.connector.id,
    ]);
    const [northwind] = await w.h.db.query<{ id: string }>(
      `select m.id from members m join teams t on t.id = m.team_id where t.slug = 'northwind' and m.deboarded_at is null limit 1`,
    );
    const t = other.body.token;
    expect((await scim('GET', `/Users/${northwind?.id}`, undefined, t)).status).toBe(404);
    expect((await scim('DELETE', `/Users/${northwind?.id}`, undefined, t)).status).toBe(404);
    const list = await scim('GET', '/Users?count=1000', undefined, t);
    const [family] = await w.h.db.query<{ n: number }>(
      `select count(*)::int as n from members m join teams t on t.id = m.team_id where t.slug = 'sam-family' and m.deboarded_at is null`,
    );
    expect(list.body.totalResults).toBe(family?.n);
    expect(list.body.Resources.map((r: Json) => r.id)).not.toContain(northwind?.id);
  });
});
