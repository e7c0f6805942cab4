import type { HubTokens, OrganizationType, TeamType } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../testing/clients.ts';
import { consoleSessions, createHubDb, type RunningHub, signGrant, startHub, TEAM } from '../testing/hub-fixture.ts';

// The Hub holds the access rules' plan part (event logs and SIEM: enterprise, standard or starter
// organisations) from what the server signs into the grant, not only the role.

let db: Db;
let hub: RunningHub;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

async function signIn(plan: { teamType?: TeamType | null; organizationType?: OrganizationType | null }, sid?: string) {
  const res = await hub.post(
    '/auth/token/',
    { team_slug: TEAM, device: { browser: 'Chromium' } },
    { authorization: `Bearer ${await signGrant({ ...plan, ...(sid ? { sid } : {}) })}` },
  );
  expect(res.status).toBe(200);
  const tokens = (await res.json()) as HubTokens;
  return { headers: { authorization: `Bearer ${tokens.access}` }, refresh: tokens.refresh };
}

const eventLogs = (headers: Record<string, string>) => send(hub, '/audit/logs/fetch/', { team_slug: TEAM }, headers);
const siemTools = (headers: Record<string, string>) => send(hub, '/siem/tools/', { team_slug: TEAM }, headers);
const eventSettings = (headers: Record<string, string>) =>
  send(hub, '/audit/logs/configuration/fetch/', { team_slug: TEAM }, headers);
const vaultSummaries = (headers: Record<string, string>) =>
  send(hub, '/api/v1/audit/vault/summaries/', { team_slug: TEAM }, headers);

describe('the plan part of the access rules, on the Hub', () => {
  it('lets a super admin of an enterprise, standard or starter organisation read event logs and SIEM tools', async () => {
    for (const organizationType of ['enterprise', 'standard', 'starter'] as const) {
      const { headers } = await signIn({ organizationType });
      expect((await eventLogs(headers)).status).toBe(200);
      expect((await siemTools(headers)).status).toBe(200);
      expect((await eventSettings(headers)).status).toBe(200);
    }
  });

  it('refuses a super admin of a team on another plan, called directly with a valid Hub session', async () => {
    for (const organizationType of ['basic', 'teams'] as const) {
      const { headers } = await signIn({ organizationType });
      for (const call of [eventLogs, siemTools, eventSettings]) {
        const res = await call(headers);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'forbidden' });
      }
      // The security audit has no plan rule: the same session still reads it.
      expect((await vaultSummaries(headers)).status).toBe(200);
    }
  });

  it('refuses a family team the organisation-only calls, and still serves it the calls open to every team', async () => {
    const { headers } = await signIn({ teamType: 'family', organizationType: 'enterprise' });
    expect((await eventLogs(headers)).status).toBe(403);
    expect((await siemTools(headers)).status).toBe(403);
    expect((await vaultSummaries(headers)).status).toBe(200);
  });

  it('refuses the plan-gated calls to a session whose grant never stated the plan (an older server)', async () => {
    const { headers } = await signIn({ teamType: null, organizationType: null });
    expect((await eventLogs(headers)).status).toBe(403);
    expect((await siemTools(headers)).status).toBe(403);
  });

  it("follows the server's word on refresh: a team moved to another plan loses event logs at the next refresh", async () => {
    const sid = crypto.randomUUID();
    const first = await signIn({ organizationType: 'enterprise' }, sid);
    expect((await eventLogs(first.headers)).status).toBe(200);

    consoleSessions.plans.set(sid, { team_type: 'organization', organization_type: 'basic' });
    const res = await hub.post('/auth/token/refresh/', { refresh: first.refresh });
    expect(res.status).toBe(200);
    const next = { authorization: `Bearer ${((await res.json()) as HubTokens).access}` };
    expect((await eventLogs(next)).status).toBe(403);
    expect((await siemTools(next)).status).toBe(403);
  });
});
