import type { Endpoint, OrganizationType, Scope, ScopeExpiry, TeamType } from '@latchkey/contracts';
import { unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';

// Who is calling the Hub: a leaf module that routes, services and the guard import, and that imports no feature.

/** The console user behind a `hubAuth` call, established before any handler runs. */
export interface HubCaller {
  sessionId: string;
  /** The server registration the session came through: where questions about roles go. */
  registrationId: string;
  userId: string;
  email: string;
  teamSlug: string;
  scopes: Scope[];
  /** The console session this Hub session came from (null for one that came otherwise): who asks for an approval. */
  consoleSid?: string | null;
}

export type HubGuard = (request: FastifyRequest, endpoint: Endpoint) => Promise<HubCaller | null>;

/** What the guard needs of a live Hub session (the auth feature finds it by its access token). */
export interface HubSessionFacts {
  id: string;
  registration_id: string;
  user_id: string;
  email: string;
  team_slug: string;
  scopes: Scope[];
  console_sid?: string | null;
  /** When each time-bound scope falls away (epoch ms); the guard drops it then. */
  scope_expiry: ScopeExpiry;
  /** The team's plan as the server last stated it; null when it never did. */
  team_type: TeamType | null;
  organization_type: OrganizationType | null;
}

/** Finds the live session an access token belongs to, or throws (401). Handed to the guard by app.ts. */
export type AuthenticateSession = (accessToken: string) => Promise<HubSessionFacts>;

/** The caller of a `hubAuth` endpoint, which the guard has always established. */
export function requireHubCaller(caller: HubCaller | null): HubCaller {
  if (!caller) throw unauthorized();
  return caller;
}
