import { describe, expect, it } from 'vitest';
import { type AccessContext, accessDenial, landingPath, RULES, SERVICE_STATUS } from './access.ts';

const on = { enabled: true, status: SERVICE_STATUS.active };
const base: AccessContext = {
  scopes: ['super_admin'],
  teamType: 'organization',
  organizationType: 'enterprise',
  cloud: 'none',
  hubEnabled: true,
  services: { integration: on, audit: on, recovery: on, audit_logs: on, secret_sharing: on },
};
const ctx = (over: Partial<AccessContext>): AccessContext => ({ ...base, ...over });

describe('access rules', () => {
  it.each([
    ['admin cannot open billing', RULES.billing, ctx({ scopes: ['admin'] }), 'role'],
    ['super admin opens billing', RULES.billing, base, null],
    ['family team has no users page', RULES.people, ctx({ teamType: 'family' }), 'team_type'],
    [
      'integrator opens integration without a hub',
      RULES.integration,
      ctx({ scopes: ['integrator'], hubEnabled: false, services: {} }),
      null,
    ],
    ['audit needs the hub', RULES.audit, ctx({ hubEnabled: false }), 'service'],
    ['audit needs the service enabled', RULES.audit, ctx({ services: { audit: { enabled: false, status: 0 } } }), 'service'],
    [
      'recovery admins need status 2',
      RULES.recoveryAdmins,
      ctx({ services: { recovery: { enabled: true, status: SERVICE_STATUS.error } } }),
      'service_status',
    ],
    ['policy history needs a paid plan', RULES.policyHistory, ctx({ organizationType: 'basic' }), 'organization_type'],
    [
      'event log settings open while SIEM is off',
      RULES.settingsEventLogs,
      ctx({ services: { audit_logs: { enabled: false, status: 0 } } }),
      null,
    ],
    [
      'event logs closed while SIEM is off',
      RULES.eventLogs,
      ctx({ services: { audit_logs: { enabled: false, status: 0 } } }),
      'service',
    ],
    ['recovery agent opens recovery', RULES.recovery, ctx({ scopes: ['recovery_agent'] }), null],
  ] as const)('%s', (_name, rule, context, expected) => {
    expect(accessDenial(rule, context)).toBe(expected);
  });

  it.each([
    [['admin'], '/dashboard'],
    [['integrator'], '/integration'],
    [['integrator', 'recovery_agent'], '/integration'],
    [['recovery_agent'], '/recovery'],
    [['super_admin', 'integrator'], '/dashboard'],
  ] as const)('lands %j on %s', (scopes, path) => {
    expect(landingPath(scopes)).toBe(path);
  });
});
