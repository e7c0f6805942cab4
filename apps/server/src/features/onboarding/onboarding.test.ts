import { ADDED_TO_ENTERPRISE_APPS, Team } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Caller } from '../../http/caller.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, ONBOARDING_DEMO, seedSecurityDemo } from '../demo/index.ts';
import { googleWorkspaceConsent, microsoftEntraConsent } from './consent.ts';
import { createOnboardingService } from './onboarding.service.ts';

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  await seedSecurityDemo(h.db);
  tokens.set('fay', (await h.signIn(ONBOARDING_DEMO.fabrikam.superAdmin, 'fabrikam')).token.access);
  tokens.set('finn', (await h.signIn(ONBOARDING_DEMO.fabrikam.admin, 'fabrikam')).token.access);
  tokens.set('lia', (await h.signIn(ONBOARDING_DEMO.litware.superAdmin, 'litware')).token.access);
  tokens.set('tia', (await h.signIn(ONBOARDING_DEMO.tailspin.superAdmin, 'tailspin')).token.access);
  tokens.set('alex', (await h.signIn(DEMO_ADMINS.superAdmin)).token.access);
});
afterAll(() => h?.close());

const token = (who: string) => tokens.get(who) as string;
const post = (path: string, body: unknown, who: string) => h.post(path, body, token(who));
const wizardOf = async (who: string) => Team.parse((await post('/api/v1/team/info/', {}, who)).body).onboarding_wizard;
const state = (stage: string, extra: Record<string, boolean> = {}) => ({
  state: { show: true, enable_console: false, resume_notification: false, stage, ...extra },
});
/** A page or script (not JSON). */
const page = async (path: string) => {
  const response = await fetch(`${h.url}${path}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
};
/** Follows the consent round trip the way the popup does: the cloud's page, then its answer. */
const consent = async (who: string, cloud: string, answer: string) => {
  const res = await post('/organization/auth/verify/url/', { cloud }, who);
  expect(res.status, res.text).toBe(200);
  const url = new URL(res.body.url as string);
  const stateParam = url.searchParams.get('state') as string;
  return { url, state: stateParam, back: await page(`/onboarding/consent/callback/?state=${stateParam}&${answer}`) };
};

describe('onboarding wizard state (spec §3, §4, §7)', () => {
  test('the stage and flags are saved in the team, and a new sign-in reads them', async () => {
    expect(await wizardOf('fay')).toEqual({
      show_wizard: true,
      enable_console: false,
      resume_notification: false,
      state: { stage: 'welcome' },
    });
    const res = await post('/api/v2/onboarding/wizard/update/', state('add_to_enterprise'), 'fay');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ show_wizard: true, state: { stage: 'add_to_enterprise' } });
    const again = (await h.signIn(ONBOARDING_DEMO.fabrikam.superAdmin, 'fabrikam')).token.access;
    const info = await h.post('/api/v1/team/info/', {}, again);
    expect(Team.parse(info.body).onboarding_wizard.state.stage).toBe('add_to_enterprise');
  });

  test("a stage the team's steps do not have is refused", async () => {
    // Tailspin has no cloud: no add-to-enterprise or admin-help step.
    for (const stage of ['add_to_enterprise', 'admin_help', 'nope']) {
      const res = await post('/api/v2/onboarding/wizard/update/', state(stage), 'tia');
      expect(res.status, stage).toBe(400);
    }
    expect((await wizardOf('tia')).state.stage).toBe('welcome');
  });

  test('wizard events are recorded with their payload', async () => {
    const event = { stage: 'setup', action: 'download', event: 'click', state: 'success', payload: { os: 'windows' } };
    const res = await post('/api/v2/onboarding/wizard/action/', event, 'tia');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ code: 'recorded' });
    const rows = await h.db.query('select stage, action, event, state, payload from onboarding_events order by id');
    expect(rows).toEqual([{ stage: 'setup', action: 'download', event: 'click', state: 'success', payload: { os: 'windows' } }]);
    // The team's event log has it too (the outbox to its Hub), as the admin's onboarding event.
    const logged = await h.db.query<{ event: Record<string, unknown> }>(
      "select o.event from event_outbox o join teams t on t.id = o.team_id where t.slug = 'tailspin' and o.event->>'component' = 'onboarding'",
    );
    expect(logged.map((r) => r.event)).toEqual([
      expect.objectContaining({
        actor: ONBOARDING_DEMO.tailspin.superAdmin,
        actor_type: 'admin',
        activity: 'onboarding.download',
        component: 'onboarding',
        target: 'setup',
        outcome: 'success',
        ip: '127.0.0.1',
        detail: { event: 'click', state: 'success', os: 'windows' },
      }),
    ]);
    expect((await post('/api/v2/onboarding/wizard/action/', { ...event, action: 'dance' }, 'tia')).status).toBe(400);
    expect((await post('/api/v2/onboarding/wizard/action/', { ...event, payload: { os: 'x', secret: 1 } }, 'tia')).status).toBe(
      400,
    );
  });

  test('add to enterprise apps: the stand-in consent grants once; verify/user and cloud/connection then agree', async () => {
    expect((await post('/api/v2/onboarding/wizard/verify/user/', {}, 'fay')).body).toMatchObject({
      code: 'app_addition_not_verified',
    });
    expect((await post('/api/v2/onboarding/wizard/cloud/connection/', {}, 'fay')).body).toMatchObject({
      code: 'cloud_not_connected',
    });

    const { url, state: s, back } = await consent('fay', 'google_drive', 'stand_in=granted');
    expect(url.pathname).toBe('/onboarding/consent/stand-in/');
    expect(s.length).toBeGreaterThanOrEqual(43);
    // The state is kept only as a hash.
    expect(JSON.stringify(await h.db.query('select * from onboarding_consents'))).not.toContain(s);
    const stand = await page(`${url.pathname}${url.search}`);
    expect(stand.status).toBe(200);
    expect(stand.text).toContain('Grant');
    expect(back.status).toBe(200);
    expect(back.text).toContain('data-status="success"');
    expect(back.text).toContain('src="/onboarding/consent/done.js"');

    expect((await post('/api/v2/onboarding/wizard/verify/user/', {}, 'fay')).body).toEqual({
      code: 'verified',
      [ADDED_TO_ENTERPRISE_APPS]: true,
    });
    expect((await post('/api/v2/onboarding/wizard/cloud/connection/', {}, 'fay')).body).toEqual({
      code: 'connected',
      cloud: 'google_drive',
    });
    expect((await wizardOf('fay')).state).toMatchObject({ stage: 'add_to_enterprise', [ADDED_TO_ENTERPRISE_APPS]: true });

    // The state is single-use.
    const replay = await page(`/onboarding/consent/callback/?state=${s}&stand_in=granted`);
    expect(replay.text).toContain('data-status="failed"');
    expect(replay.text).toContain('data-code="process_failed"');
    const script = await page('/onboarding/consent/done.js');
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.text).toContain('window.location.origin');
  });

  test('a denied consent is app_not_activated and adds nothing; a forged state is process_failed', async () => {
    const { back } = await consent('lia', 'one_drive', 'error=access_denied');
    expect(back.text).toContain('data-code="app_not_activated"');
    expect((await wizardOf('lia')).state[ADDED_TO_ENTERPRISE_APPS]).toBeUndefined();
    const forged = await page('/onboarding/consent/callback/?state=%3Cscript%3E&stand_in=granted');
    expect(forged.text).toContain('data-code="process_failed"');
    expect(forged.text).not.toContain('<script>');
    const stand = await page('/onboarding/consent/stand-in/?state=%22%3E%3Cscript%3Ealert(1)%3C/script%3E');
    expect(stand.text).not.toContain('<script>alert');
    // Only the team's own cloud.
    expect((await post('/organization/auth/verify/url/', { cloud: 'google_drive' }, 'lia')).status).toBe(409);
    expect((await post('/organization/auth/verify/url/', { cloud: 'google_drive' }, 'tia')).status).toBe(409);
  });

  test('a key given twice or with brackets is no answer: the page says process_failed (never a 500) and the state stays unspent', async () => {
    const res = await post('/organization/auth/verify/url/', { cloud: 'one_drive' }, 'lia');
    const s = new URL(res.body.url as string).searchParams.get('state') as string;
    for (const query of [`state=${s}&state=${s}`, `state[]=${s}`, `state[a]=${s}`]) {
      const back = await page(`/onboarding/consent/callback/?${query}&admin_consent=True`);
      expect(back.status, query).toBe(200);
      expect(back.text).toContain('data-code="process_failed"');
    }
    const denied = await page(`/onboarding/consent/callback/?state=${s}&error=access_denied&error=again`);
    expect(denied.text).toContain('data-code="app_not_activated"');
    const stand = await page(`/onboarding/consent/stand-in/?state=${s}&state=${s}`);
    expect(stand.status).toBe(200);
  });

  test('downloads: one location per platform, and the public downloads page', async () => {
    const windows = await post('/api/v1/onboarding/wizard/product/download/', { id: 'windows' }, 'tia');
    expect(windows.body).toEqual({ location: `${h.config.DOWNLOADS_URL}windows` });
    const all = await post('/api/v1/onboarding/wizard/product/download/', { id: 'all' }, 'tia');
    expect(all.body).toEqual({ location: h.config.DOWNLOADS_URL });
    expect((await post('/api/v1/onboarding/wizard/product/download/', { id: 'beos' }, 'tia')).status).toBe(400);
  });

  test('finishing ends the wizard for good: later updates and events are not_allowed', async () => {
    const done = await post('/api/v2/onboarding/wizard/update/', state('all_set', { show: false, enable_console: true }), 'tia');
    expect(done.status).toBe(200);
    expect(await wizardOf('tia')).toMatchObject({ show_wizard: false, enable_console: true, state: { stage: 'all_set' } });
    const reopen = await post('/api/v2/onboarding/wizard/update/', state('welcome'), 'tia');
    expect(reopen.status).toBe(409);
    expect(reopen.body).toMatchObject({ code: 'not_allowed' });
    expect(
      (
        await post(
          '/api/v2/onboarding/wizard/action/',
          { stage: 'welcome', action: 'next', event: 'click', state: 'success' },
          'tia',
        )
      ).status,
    ).toBe(409);
    // Northwind finished long ago.
    expect((await post('/api/v2/onboarding/wizard/update/', state('welcome'), 'alex')).status).toBe(409);
  });

  test('only the super admin', async () => {
    for (const path of [
      '/api/v2/onboarding/wizard/update/',
      '/api/v2/onboarding/wizard/verify/user/',
      '/organization/auth/verify/url/',
    ]) {
      expect((await post(path, state('welcome'), 'finn')).status, path).toBe(403);
    }
  });

  test('no consent app for the cloud: url_fetch_failed', async () => {
    const service = createOnboardingService(h.db, {
      providers: {},
      callbackUrl: () => 'https://console.example',
      downloadsUrl: 'https://example.com/d/',
      downloadLocations: {},
    });
    const [team] = await h.db.query<{ id: string }>("select id from teams where slug = 'litware'");
    const caller = { team: { id: team?.id, business_cloud: 'one_drive' }, userId: '' } as unknown as Caller;
    await expect(service.consentUrl(caller, 'one_drive')).rejects.toMatchObject({ code: 'url_fetch_failed', status: 502 });
  });
});

describe('consent providers (real admin-consent addresses from configuration)', () => {
  test('Microsoft Entra ID admin consent', () => {
    const p = microsoftEntraConsent('client-1', 'https://graph.microsoft.com/.default');
    const url = new URL(p.consentUrl({ state: 's1', redirectUri: 'https://console.example/cb/' }));
    expect(url.origin + url.pathname).toBe('https://login.microsoftonline.com/organizations/v2.0/adminconsent');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-1',
      scope: 'https://graph.microsoft.com/.default',
      redirect_uri: 'https://console.example/cb/',
      state: 's1',
    });
    expect(p.outcome({ admin_consent: 'True', tenant: 't' })).toEqual({ granted: true });
    expect(p.outcome({ error: 'access_denied' })).toEqual({ granted: false, reason: 'access_denied' });
    expect(p.outcome({})).toEqual({ granted: false, reason: 'not_granted' });
  });

  test('Google Workspace consent', () => {
    const p = googleWorkspaceConsent('gid', 'https://www.googleapis.com/auth/drive.file');
    const url = new URL(p.consentUrl({ state: 's2', redirectUri: 'https://console.example/cb/' }));
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(url.searchParams.get('client_id')).toBe('gid');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('state')).toBe('s2');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(p.outcome({ code: 'abc' })).toEqual({ granted: true });
    expect(p.outcome({ error: 'access_denied' })).toEqual({ granted: false, reason: 'access_denied' });
  });
});
