import { answers, DEFAULT_ROLES, type Endpoint } from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { describe, expect, it } from 'vitest';
import { auditRoutes } from './features/audit/audit.routes.ts';
import { recoveryRoutes } from './features/recovery/recovery.routes.ts';
import { sharingRoutes } from './features/sharing/sharing.routes.ts';
import { consoleAuth, hubForFile, registerDevice, send } from './testing/clients.ts';
import { TEAM } from './testing/hub-fixture.ts';

// A team with none of the gated services switched on here (integration on: devices still enrol).
const at = hubForFile({ services: ['integration', 'audit_logs'] });

const refused = { code: 'service_disabled', message_key: 'errors.service_disabled' };

/** The endpoints a route file registers, read from the file itself so a call added there is covered here. */
function registeredBy(register: (router: Router) => void): Endpoint[] {
  const endpoints: Endpoint[] = [];
  const recorder: Router = {
    handle: (endpoint) => void endpoints.push(endpoint),
    withheld: () => recorder,
    complete: () => endpoints,
  };
  register(recorder);
  return endpoints;
}

const noGuard = async () => null;
// The services are built but never called: the recorder keeps only the endpoints.
const unused = undefined as never;
const gated = {
  audit: registeredBy((r) => auditRoutes(r, noGuard, noGuard, unused)),
  secret_sharing: registeredBy((r) => sharingRoutes(r, noGuard, noGuard, unused)),
  recovery: registeredBy((r) => recoveryRoutes(r, noGuard, noGuard, unused, unused, unused)),
};
const table = Object.entries(gated).flatMap(([service, endpoints]) =>
  endpoints.map((endpoint) => ({ service, name: endpoint.name, auth: endpoint.auth, endpoint })),
);

/**
 * A caller the endpoint's guard lets through: a member's device, or a console session of the
 * narrowest role its access rule allows (a recovery admin for recovery requests, not only the super admin).
 */
async function callerOf(endpoint: Endpoint): Promise<Record<string, string>> {
  if (endpoint.auth === 'device') return registerDevice(at.hub, 'ava@northwind.example');
  const roles = endpoint.access?.roles ?? DEFAULT_ROLES;
  return consoleAuth(at.hub, [roles[roles.length - 1] ?? 'super_admin']);
}

describe('audit, secret sharing and recovery switched off for the team', () => {
  it("covers every call the three route files register, the apps' and the console's", () => {
    const counted = Object.fromEntries(Object.entries(gated).map(([service, endpoints]) => [service, endpoints.length]));
    expect(counted).toEqual({ audit: 3, secret_sharing: 6, recovery: 16 });
    expect(new Set(table.map((row) => row.auth))).toEqual(new Set(['device', 'hubAuth']));
  });

  it.each(table)('$service: $name ($auth) answers 409 service_disabled, which it declares', async ({ endpoint }) => {
    expect(endpoint.method).toBe('POST');
    // The gate refuses before the input is read: the team is all a body needs.
    const body = endpoint.auth === 'device' ? {} : { team_slug: TEAM };
    const res = await send(at.hub, endpoint.path, body, await callerOf(endpoint));
    // Undeclared, the reply check turns it into a 500 under vitest.
    expect([res.status, res.body]).toMatchObject([409, refused]);
    expect(answers(endpoint, 'service_disabled')).toBe(true);
    expect(endpoint.errors?.[0]).toBe('service_disabled');
  });
});
