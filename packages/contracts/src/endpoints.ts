import * as account from './account.ts';
import * as adminElevations from './admin-elevations.ts';
import * as admins from './admins.ts';
import * as alerts from './alerts.ts';
import * as approvals from './approvals.ts';
import * as audit from './audit.ts';
import * as auth from './auth.ts';
import * as billing from './billing.ts';
import * as branding from './branding.ts';
import * as dashboard from './dashboard.ts';
import * as devices from './devices.ts';
import * as directory from './directory.ts';
import type { Endpoint, Program } from './endpoint.ts';
import * as eventlogs from './eventlogs.ts';
import * as eventlogSavedSearches from './eventlogs-saved-searches.ts';
import * as family from './family.ts';
import * as groups from './groups.ts';
import * as hub from './hub.ts';
import * as hubApprovals from './hub-approvals.ts';
import * as hubIntegration from './hub-integration.ts';
import * as ingestion from './ingestion.ts';
import * as integration from './integration.ts';
import * as members from './members.ts';
import * as onboarding from './onboarding.ts';
import * as policies from './policies.ts';
import * as recovery from './recovery.ts';
import * as scim from './scim.ts';
import * as securityKeys from './security-keys.ts';
import * as sharing from './sharing.ts';
import * as siem from './siem.ts';
import * as signInLinks from './sign-in-links.ts';
import * as sso from './sso.ts';
import * as team from './team.ts';

/**
 * The domain modules whose endpoints make up the API. A new call is one `defineEndpoint` in one
 * of these (a new domain module is added here once); every export that is an endpoint is found.
 */
const MODULES = {
  account,
  adminElevations,
  admins,
  alerts,
  approvals,
  audit,
  auth,
  billing,
  branding,
  dashboard,
  devices,
  directory,
  eventlogs,
  eventlogSavedSearches,
  family,
  groups,
  hub,
  hubApprovals,
  hubIntegration,
  ingestion,
  integration,
  members,
  onboarding,
  policies,
  recovery,
  scim,
  securityKeys,
  sharing,
  siem,
  signInLinks,
  sso,
  team,
};

type Modules = typeof MODULES;
type ModuleEndpoints<M> = { [K in keyof M as M[K] extends Endpoint ? M[K]['name'] : never]: M[K] };
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Each call's name → its endpoint, derived from the declarations (what the console's `call()` is typed by). */
export type ApiMap = UnionToIntersection<{ [M in keyof Modules]: ModuleEndpoints<Modules[M]> }[keyof Modules]>;
export type EndpointName = keyof ApiMap;
function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'program' in value && 'path' in value && 'output' in value;
}

function collect(): ApiMap {
  const byName = new Map<string, Endpoint>();
  const byRoute = new Map<string, string>();
  for (const module of Object.values(MODULES)) {
    for (const value of Object.values(module)) {
      if (!isEndpoint(value) || byName.get(value.name) === value) continue;
      // Two declarations with one name or one route would silently shadow each other.
      if (byName.has(value.name)) throw new Error(`Two endpoints are named ${value.name}.`);
      const route = `${value.program} ${value.method} ${value.path}`;
      const other = byRoute.get(route);
      if (other) throw new Error(`${value.name} and ${other} are both ${route}.`);
      byName.set(value.name, value);
      byRoute.set(route, value.name);
    }
  }
  return Object.fromEntries(byName) as unknown as ApiMap;
}

/** Every call of both programs, by name. */
export const ENDPOINTS: ApiMap = collect();

/** The calls `program` answers: what its router must have a handler for, and what its OpenAPI document lists. */
export function endpointsOf(program: Program): Endpoint[] {
  return (Object.values(ENDPOINTS) as Endpoint[]).filter((e) => e.program === program);
}
