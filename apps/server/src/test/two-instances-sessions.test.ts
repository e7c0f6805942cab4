import { readdirSync } from 'node:fs';
import type { HubTokens, TokenPair } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { describe, expect, test } from 'vitest';
import { MIGRATIONS_DIR as HUB_MIGRATIONS_DIR } from '../../../hub/src/db/migrations-dir.ts';
import { MIGRATIONS_DIR } from '../db/migrations-dir.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../features/demo/seed.ts';
import { type Answer, twoInstancesForFile } from './two-instances-harness.ts';

// Two servers and two Hubs started together: each database migrated and seeded once, a session and
// its Hub tokens good on every instance until signed out on one, and each sign-in mail sent once.
// The mail test counts the super admin's sign-in before it, so these tests share one file and run in order.

// On PostgreSQL only: embedded PGlite is one process's own database, so there are no two instances to run
// (vitest.config.ts leaves this file out of the PGlite pass).
describe('two server instances and two Hub instances behind one address each, on one PostgreSQL and one Redis', () => {
  const instances = twoInstancesForFile();
  const { serverDbs, hubDbs, migrated, seeded, server, hub, codesMailed, signIn, whoami, hubWhoami } = instances;

  test('started together, the instances migrate each database exactly once, and seed the demo once', async () => {
    const serverMigrations = readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{4}_.+\.sql$/.test(f))
      .sort();
    const hubMigrations = readdirSync(HUB_MIGRATIONS_DIR)
      .filter((f) => /^\d{4}_.+\.sql$/.test(f))
      .sort();
    // One instance applied them all, the other found nothing left to do.
    expect(migrated.server.map((m) => m.length).sort()).toEqual([0, serverMigrations.length]);
    expect(migrated.hub.map((m) => m.length).sort()).toEqual([0, hubMigrations.length]);
    const applied = async (db: Db) =>
      (await db.query<{ name: string }>('select name from schema_migrations order by name')).map((r) => r.name);
    expect(await applied(serverDbs[0] as Db)).toEqual(serverMigrations);
    expect(await applied(hubDbs[0] as Db)).toEqual(hubMigrations);
    expect(seeded.sort()).toEqual([false, true]);
    expect(await (serverDbs[0] as Db).query("select slug from teams where slug = 'northwind'")).toHaveLength(1);
  });

  test('a session works through the proxy on both instances: sign-in, calls, refresh, Hub tokens, sign-out ending it everywhere at once', async () => {
    const email = DEMO_ADMINS.superAdmin;
    const signedIn = await signIn(email);
    // The code's mail was sent by one instance's job worker, once, though both run the queue.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await codesMailed(email)).toHaveLength(1);

    // The access token works on both instances.
    expect((await whoami(signedIn.token.access, 0)).status).toBe(200);
    expect((await whoami(signedIn.token.access, 1)).status).toBe(200);

    // Refreshed on one, the new token works on the other; the old refresh token is spent on both.
    const refreshed = await server<TokenPair>('/oauth/refresh/token/', {
      form: { grant_type: 'refresh_token', refresh_token: signedIn.token.refresh_token },
      pin: 0,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.instance).toBe(0);
    const tokens = refreshed.body;
    expect((await whoami(tokens.access, 1)).status).toBe(200);

    // The aux code is exchanged at one Hub instance; the Hub tokens work on both, refresh on one, use on the other.
    const aux = signedIn.aux_code;
    expect(aux?.server_url).toBe(instances.hubProxy.url);
    const exchanged = await hub<HubTokens>('/auth/token/', {
      body: { team_slug: 'northwind', device: {} },
      token: aux?.access,
      pin: 1,
    });
    expect(exchanged.status).toBe(200);
    expect((await hubWhoami(exchanged.body, 0)).status).toBe(200);
    expect((await hubWhoami(exchanged.body, 1)).status).toBe(200);
    const hubRefreshed = await hub<HubTokens>('/auth/token/refresh/', { body: { refresh: exchanged.body.refresh }, pin: 0 });
    expect(hubRefreshed.status).toBe(200);
    const hubTokens = hubRefreshed.body;
    expect((await hubWhoami(hubTokens, 1)).status).toBe(200);
    // The spent token sent again to the other instance within the grace window: the same tokens, not a theft.
    const again = await hub<HubTokens>('/auth/token/refresh/', { body: { refresh: exchanged.body.refresh }, pin: 1 });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(hubTokens);

    // Instance 1 has just read this session (and keeps it for its cache's lifetime)…
    expect((await whoami(tokens.access, 1)).status).toBe(200);
    // …signed out on instance 0…
    const signedOut = await server('/api/v1/user/signout/', { token: tokens.access, pin: 0 });
    expect(signedOut.status).toBe(200);
    // …instance 1 refuses it at once, as does instance 0.
    expect((await whoami(tokens.access, 1)).status).toBe(401);
    expect((await whoami(tokens.access, 0)).status).toBe(401);
    // The Hub session it opened ended with it, on both Hub instances.
    expect((await hubWhoami(hubTokens, 0)).status).toBe(401);
    expect((await hubWhoami(hubTokens, 1)).status).toBe(401);
    expect((await hub('/auth/token/refresh/', { body: { refresh: hubTokens.refresh }, pin: 1 })).status).toBe(400);
  });

  test('every sign-in code is mailed exactly once, whichever instance runs the job', async () => {
    const emails = [DEMO_ADMINS.admin, DEMO_ADMINS.integrator, DEMO_ADMINS.recoveryAgent];
    // Enqueued alternately on each instance (round robin).
    for (const email of emails) {
      const login = await server('/api/v1/console/auth/login/', { body: { email, team_slug: 'northwind' } });
      expect(login.status).toBe(200);
      const password = await server('/api/v1/console/auth/verify/password/', {
        body: { email, password: DEMO_PASSWORD, team_slug: 'northwind' },
      });
      expect(password.status).toBe(200);
    }
    for (const email of emails) expect(await codesMailed(email)).toHaveLength(1);
    // Past a few polling intervals of both workers: still one each.
    await new Promise((r) => setTimeout(r, 1500));
    for (const email of emails) expect(await codesMailed(email)).toHaveLength(1);
    const jobs = await (serverDbs[1] as Db).query<{ state: string; n: number }>(
      "select state::text as state, count(*)::int as n from job_queue.job where name = 'mail' group by state",
    );
    // The super admin's code and these three, each run once and completed.
    expect(jobs).toEqual([{ state: 'completed', n: 1 + emails.length }]);
  });

  test('one refresh token renewed on both instances at once: both answer the same successor, the sessions live on', async () => {
    // An admin no other test here signs in (the helper reads the first code mailed to an address).
    const signedIn = await signIn(DEMO_ADMINS.twoTeams);
    const form = { grant_type: 'refresh_token', refresh_token: signedIn.token.refresh_token };
    const renewed = await Promise.all([0, 1].map((pin) => server<TokenPair>('/oauth/refresh/token/', { form, pin })));
    expect(renewed.map((r) => r.status)).toEqual([200, 200]);
    expect(renewed[1]?.body).toEqual(renewed[0]?.body);
    expect((await whoami((renewed[0] as Answer<TokenPair>).body.access, 1)).status).toBe(200);

    const exchanged = await hub<HubTokens>('/auth/token/', {
      body: { team_slug: 'northwind', device: {} },
      token: signedIn.aux_code?.access,
    });
    expect(exchanged.status).toBe(200);
    const body = { refresh: exchanged.body.refresh };
    const hubRenewed = await Promise.all([0, 1].map((pin) => hub<HubTokens>('/auth/token/refresh/', { body, pin })));
    expect(hubRenewed.map((r) => r.status)).toEqual([200, 200]);
    expect(hubRenewed[1]?.body).toEqual(hubRenewed[0]?.body);
    expect((await hubWhoami((hubRenewed[0] as Answer<HubTokens>).body, 0)).status).toBe(200);
  });
});
