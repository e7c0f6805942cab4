import type {
  AccessContext,
  AuxService,
  BusinessCloud,
  Endpoint,
  OrganizationType,
  Scope,
  ScopeExpiry,
  ServiceState,
  TeamType,
} from '@latchkey/contracts';
import { unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';

/**
 * Who is calling: what the guard establishes before any handler runs, and what every service
 * takes. A leaf: it imports no feature, so the guard and the features can both depend on it.
 */

/** The caller's team as the session context reads it (the teams row, dates as YYYY-MM-DD). */
export interface CallerTeam {
  id: string;
  slug: string;
  name: string;
  team_type: TeamType;
  organization_type: OrganizationType;
  bill_state: string;
  bill_type: string;
  business_cloud: BusinessCloud;
  purchase_partner: string | null;
  is_team_policy_present: boolean;
  /** Spec §3 Team.benefit.grant_subscription. */
  benefit_grant_subscription: boolean;
  started_on: string;
  valid_till: string;
  onboarding_wizard: { show_wizard: boolean; enable_console: boolean; resume_notification: boolean; state: { stage: string } };
}

/** Everything a request's access decision needs, read by the team feature's `findSessionContext`. */
export interface SessionContext {
  session_id: string;
  user_id: string;
  email: string;
  revoked_at: Date | null;
  absolute_expires_at: Date;
  scopes: Scope[] | null;
  /** When each time-bound scope falls away (the guard drops it then, whatever the cache holds). */
  scope_expiry: ScopeExpiry;
  team: CallerTeam;
  first_hub_services: Partial<Record<AuxService, ServiceState>> | null;
}

export interface Caller {
  userId: string;
  email: string;
  sessionId: string;
  scopes: Scope[];
  team: CallerTeam;
  access: AccessContext;
  /** Who approved the change this call runs, when it waited for four-eyes approval (for the records it writes). */
  approvedBy?: readonly string[];
}

export type Guard = (request: FastifyRequest, endpoint: Endpoint) => Promise<Caller | null>;

/** The caller of a `session` endpoint, which the guard has always established. */
export function requireCaller(caller: Caller | null): Caller {
  if (!caller) throw unauthorized();
  return caller;
}
