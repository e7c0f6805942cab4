/**
 * Access rules (spec §2 Route guard, §6): one definition, used by the console's route guard and
 * sidebar and enforced by the server and hub on the matching calls.
 */
export const SCOPES = ['super_admin', 'admin', 'integrator', 'recovery_agent'] as const;
export type Scope = (typeof SCOPES)[number];

export const TEAM_TYPES = ['organization', 'family'] as const;
export type TeamType = (typeof TEAM_TYPES)[number];

export const ORGANIZATION_TYPES = ['starter', 'standard', 'enterprise', 'basic', 'teams'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

export const BUSINESS_CLOUDS = ['google_drive', 'one_drive', 'none', ''] as const;
export type BusinessCloud = (typeof BUSINESS_CLOUDS)[number];

/** Auxiliary services a Hub runs; `integration` is the Hub connection itself. */
export const AUX_SERVICES = ['integration', 'audit', 'audit_logs', 'recovery', 'secret_sharing'] as const;
export type AuxService = (typeof AUX_SERVICES)[number];

/** Service status numbers: the spec's "status 2" is a running service. */
export const SERVICE_STATUS = { disabled: 0, pending: 1, active: 2, error: 3 } as const;
export type ServiceStatus = (typeof SERVICE_STATUS)[keyof typeof SERVICE_STATUS];

export interface AccessRule {
  roles?: readonly Scope[];
  teamTypes?: readonly TeamType[];
  organizationTypes?: readonly OrganizationType[];
  clouds?: readonly BusinessCloud[];
  service?: AuxService;
  /** The service must have this status (otherwise enabled is enough). */
  serviceStatus?: ServiceStatus;
  /** Reachable while the service is switched off (settings/eventlogs). */
  allowDisabledService?: boolean;
  /** Only for a team entitled to grant the family plan as a benefit (spec §3 Team.benefit.grant_subscription). */
  grantSubscription?: boolean;
}

export interface ServiceState {
  enabled: boolean;
  status: number;
}

export interface AccessContext {
  scopes: readonly Scope[];
  teamType: TeamType;
  organizationType: OrganizationType;
  cloud: BusinessCloud;
  /** A Hub is connected to the team. */
  hubEnabled: boolean;
  services: Partial<Record<AuxService, ServiceState>>;
  /** The team's Team.benefit.grant_subscription; absent is not entitled. */
  grantSubscription?: boolean;
}

export const DEFAULT_ROLES: readonly Scope[] = ['super_admin', 'admin'];
export const DEFAULT_TEAM_TYPES: readonly TeamType[] = ['organization'];
export const ALL_ROLES: readonly Scope[] = SCOPES;
export const ALL_TEAM_TYPES: readonly TeamType[] = TEAM_TYPES;
const PAID_ORG_TYPES: readonly OrganizationType[] = ['enterprise', 'standard', 'starter'];

export type AccessDenial = 'role' | 'team_type' | 'organization_type' | 'entitlement' | 'cloud' | 'service' | 'service_status';

/** Why a rule refuses a context, or null when it allows it. */
export function accessDenial(rule: AccessRule, ctx: AccessContext): AccessDenial | null {
  const roles = rule.roles ?? DEFAULT_ROLES;
  if (!ctx.scopes.some((s) => roles.includes(s))) return 'role';
  if (!(rule.teamTypes ?? DEFAULT_TEAM_TYPES).includes(ctx.teamType)) return 'team_type';
  if (rule.organizationTypes && !rule.organizationTypes.includes(ctx.organizationType)) return 'organization_type';
  if (rule.grantSubscription && !ctx.grantSubscription) return 'entitlement';
  if (rule.clouds && !rule.clouds.includes(ctx.cloud)) return 'cloud';
  if (rule.service) {
    const state = ctx.services[rule.service];
    // Integration is always reachable by its role; every other service needs the Hub.
    if (rule.service !== 'integration') {
      if (!ctx.hubEnabled) return 'service';
      if (!rule.allowDisabledService && !state?.enabled) return 'service';
    }
    if (rule.serviceStatus !== undefined && state?.status !== rule.serviceStatus) return 'service_status';
  }
  return null;
}

export const canAccess = (rule: AccessRule, ctx: AccessContext): boolean => accessDenial(rule, ctx) === null;

/** Spec §6: only the super admin is unrestricted; every other scope set is restricted. */
export const isRestricted = (scopes: readonly Scope[]): boolean => !scopes.includes('super_admin');

/** Named rules, reused by routes and calls. */
export const RULES = {
  anyAdmin: { roles: ALL_ROLES, teamTypes: ALL_TEAM_TYPES },
  superAdmin: { roles: ['super_admin'] },
  superAdminAnyTeam: { roles: ['super_admin'], teamTypes: ALL_TEAM_TYPES },
  people: { roles: DEFAULT_ROLES },
  dashboard: { roles: DEFAULT_ROLES, teamTypes: ALL_TEAM_TYPES },
  billing: { roles: ['super_admin'], teamTypes: ALL_TEAM_TYPES },
  onboarding: { roles: ['super_admin'] },
  /** Family plan settings (super admin of an organisation team entitled to it); the console sends others to /settings. */
  familyPlan: { roles: ['super_admin'], grantSubscription: true },
  scim: { roles: ['super_admin'], organizationTypes: PAID_ORG_TYPES },
  settingsRecovery: { roles: ['super_admin'], service: 'recovery', serviceStatus: SERVICE_STATUS.active },
  settingsEventLogs: {
    roles: ['super_admin'],
    organizationTypes: PAID_ORG_TYPES,
    service: 'audit_logs',
    allowDisabledService: true,
  },
  policies: { roles: DEFAULT_ROLES },
  policyHistory: { roles: DEFAULT_ROLES, organizationTypes: PAID_ORG_TYPES },
  integration: { roles: ['super_admin', 'integrator'], teamTypes: ALL_TEAM_TYPES, service: 'integration' },
  audit: { roles: ['super_admin'], teamTypes: ALL_TEAM_TYPES, service: 'audit' },
  sharing: { roles: ['super_admin'], teamTypes: ALL_TEAM_TYPES, service: 'secret_sharing' },
  eventLogs: { roles: ['super_admin'], organizationTypes: PAID_ORG_TYPES, service: 'audit_logs' },
  recovery: { roles: ['super_admin', 'recovery_agent'], teamTypes: ALL_TEAM_TYPES },
  /** The recovery requests themselves: the recovery route's people, once the Hub runs the service. */
  recoveryRequests: { roles: ['super_admin', 'recovery_agent'], teamTypes: ALL_TEAM_TYPES, service: 'recovery' },
  /** Switching the recovery service on or off: the super admin, with a Hub connected, whatever its state. */
  recoverySwitch: { roles: ['super_admin'], teamTypes: ALL_TEAM_TYPES, service: 'recovery', allowDisabledService: true },
  recoveryAdmins: {
    roles: ['super_admin'],
    teamTypes: ALL_TEAM_TYPES,
    service: 'recovery',
    serviceStatus: SERVICE_STATUS.active,
  },
} as const satisfies Record<string, AccessRule>;

/** Landing page for a scope set (spec §4 Landing page). */
export function landingPath(scopes: readonly Scope[]): string {
  if (scopes.includes('super_admin') || scopes.includes('admin')) return '/dashboard';
  if (scopes.includes('integrator')) return '/integration';
  if (scopes.includes('recovery_agent')) return '/recovery';
  return '/dashboard';
}

/** When each time-bound scope an admin holds falls away (epoch ms); a standing scope has no entry. */
export type ScopeExpiry = Partial<Record<Scope, number>>;

/**
 * The scopes still held at `now`: a time-bound scope (a just-in-time elevation) falls away at its
 * expiry, whatever token the caller presents. The server's guard and the Hub's both apply it.
 */
export function liveScopes(scopes: readonly Scope[], expiry: ScopeExpiry | null | undefined, now: number): Scope[] {
  return scopes.filter((s) => {
    const until = expiry?.[s];
    return until === undefined || until > now;
  });
}
