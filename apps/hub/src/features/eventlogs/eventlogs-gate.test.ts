import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hubForFile, registerDevice, send } from '../../testing/clients.ts';
import { TEAM } from '../../testing/hub-fixture.ts';

// A team whose event logs are switched off on this Hub (its other services on).
const at = hubForFile({ services: ['integration', 'audit', 'recovery', 'secret_sharing'] });

const refused = { code: 'service_disabled', message_key: 'errors.service_disabled' };
const id = randomUUID();

describe('the event log switched off for the team', () => {
  it("refuses the log's calls with service_disabled (declared, so a 409 and not a 500)", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['/audit/logs/fetch/', {}],
      ['/audit/logs/filters/fetch/', {}],
      ['/audit/logs/verify/', {}],
      ['/audit/logs/export/', { format: 'csv' }],
    ];
    for (const [path, body] of calls) {
      const res = await send(at.hub, path, { team_slug: TEAM, ...body }, at.admin);
      expect([path, res.status, res.body]).toMatchObject([path, 409, refused]);
    }
  });

  it("refuses the alert rules' calls with service_disabled", async () => {
    const rule = { name: 'Off', filters: {}, condition: { kind: 'every' }, cooldown_minutes: 0, destinations: [], enabled: true };
    const calls: [string, Record<string, unknown>][] = [
      ['/audit/alerts/rules/', {}],
      ['/audit/alerts/rules/create/', rule],
      ['/audit/alerts/rules/update/', { id, ...rule }],
      ['/audit/alerts/rules/enable/', { id, enabled: false }],
      ['/audit/alerts/rules/delete/', { id }],
      ['/audit/alerts/templates/enable/', { template: 'failed_sign_ins', name: 'Off', destinations: [] }],
      ['/audit/alerts/rules/test/', { id }],
      ['/audit/alerts/rules/firings/', { id }],
    ];
    for (const [path, body] of calls) {
      const res = await send(at.hub, path, { team_slug: TEAM, ...body }, at.admin);
      expect([path, res.status, res.body]).toMatchObject([path, 409, refused]);
    }
  });

  it("refuses a device's events and the pull API with service_disabled (the pull token is a setting, made while off)", async () => {
    const device = await registerDevice(at.hub, 'ava@northwind.example');
    const ingest = await send(
      at.hub,
      '/api/v1/client/events/',
      { events: [{ type: 'vault_unlocked', occurred_at: new Date().toISOString() }] },
      device,
    );
    expect([ingest.status, ingest.body]).toMatchObject([409, refused]);

    const made = await send<{ token: string }>(
      at.hub,
      '/audit/logs/pull/token/',
      { team_slug: TEAM, action: 'create' },
      at.admin,
    );
    expect(made.status).toBe(200);
    const pull = await fetch(`${at.hub.url}/api/v1/events/pull/`, { headers: { authorization: `Bearer ${made.body.token}` } });
    expect([pull.status, await pull.json()]).toMatchObject([409, refused]);
  });
});
