import { z } from 'zod';
import { ORGANIZATION_TYPES, RULES, SCOPES, TEAM_TYPES } from './access.ts';
import { Device } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';
import { AuxServiceSchema } from './integration.ts';

/** Each time-bound scope's expiry (epoch ms), in a grant or a session check: `liveScopes` applies it. */
export const ScopeExpirySchema = z.partialRecord(z.enum(SCOPES), z.number());

/**
 * Calls between the licence server and a Hub. Each carries `Authorization: Bearer <JWS>`: an
 * Ed25519 signature by the caller's own key (kid = the credential), for this path and team, for
 * one minute, with a one-time nonce and the SHA-256 of the body (packages/runtime/src/signed.ts).
 * `public` here means "not a console or Hub session": the receiver checks that signature itself.
 */

/** An Ed25519 public key as JWK: what each side keeps of the other. */
export const Ed25519JwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().length(43),
});
export type Ed25519Jwk = z.infer<typeof Ed25519JwkSchema>;

const HubState = z.object({
  version: z.string(),
  /** What this Hub's version runs. */
  offered: z.array(AuxServiceSchema),
  /** What the team has switched on at this Hub. */
  enabled: z.array(AuxServiceSchema),
});
export type HubState = z.infer<typeof HubState>;

export const hubVerifyEndpoint = defineEndpoint({
  name: 'hubVerify',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/integrate/verify/',
  auth: 'public',
  errors: ['hub_not_registered', 'unauthorized'],
  summary: "Server to Hub (signed with the server's key): is the credential registered here, and what runs.",
  input: z.object({ team_slug: z.string().max(100) }),
  output: HubState,
});

export const hubSetServicesEndpoint = defineEndpoint({
  name: 'hubSetServices',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/integrate/services/',
  auth: 'public',
  errors: ['not_allowed', 'unauthorized'],
  summary: "Server to Hub (signed with the server's key): the services the team has switched on.",
  input: z.object({ team_slug: z.string().max(100), enabled: z.array(AuxServiceSchema).max(10) }),
  output: HubState,
});

export const hubDeleteConnectorEndpoint = defineEndpoint({
  name: 'hubDeleteConnector',
  program: 'hub',
  method: 'POST',
  path: '/delete/connector/',
  auth: 'hubAuth',
  access: RULES.integration,
  summary: "Removes the team's registration from this Hub; every Hub session of the team ends.",
  input: z.object({ team_slug: z.string().max(100), device: Device }),
  output: z.object({ code: z.literal('connector_deleted') }),
});

export const hubEnabledServicesEndpoint = defineEndpoint({
  name: 'hubEnabledServices',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/hub/services/',
  auth: 'hubAuth',
  access: RULES.anyAdmin,
  summary: 'The services the team has switched on at this Hub, and its version.',
  input: z.object({ team_slug: z.string().max(100) }),
  output: HubState,
});

export const hubRegisterEndpoint = defineEndpoint({
  name: 'hubRegister',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/integrate/register/',
  auth: 'public',
  errors: ['not_allowed', 'setup_key_invalid', 'unauthorized'],
  summary:
    "Server to Hub (signed with the key it sends): registers a credential of a team. A team new to this Hub needs the operator's setup key for exactly that team (single use, short-lived); a team already registered needs the call to verify against a server key registered for it — a setup key alone is refused. The Hub answers with its own public key.",
  input: z.object({
    team_slug: z.string().min(1).max(100),
    credential_id: z.string().min(1).max(200),
    server_key: Ed25519JwkSchema,
    /** Where the Hub calls the server back (session checks). */
    server_url: z.url().max(300),
    setup_key: z.string().max(500).optional(),
  }),
  output: z.object({ hub_key: Ed25519JwkSchema, version: z.string() }),
});

export const hubRevokeSessionsEndpoint = defineEndpoint({
  name: 'hubRevokeSessions',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/integrate/sessions/revoke/',
  auth: 'public',
  errors: ['unauthorized'],
  summary:
    'Server to Hub (signed): console sessions ended (sign-out, removal, scope change, reset, password change); the Hub ends the Hub sessions that came from them, or every Hub session of a user.',
  input: z.object({
    team_slug: z.string().min(1).max(100),
    session_ids: z.array(z.string().max(100)).max(1000).optional(),
    user_id: z.string().max(100).optional(),
    /**
     * The admin whose role changed on the server, and their scopes now ([] once removed). The
     * server's `recovery_agent` scope is the one recovery role: without it the Hub takes them out of
     * its recovery group.
     */
    admin: z.object({ email: z.string().max(254), scopes: z.array(z.enum(SCOPES)).max(SCOPES.length) }).optional(),
  }),
  output: z.object({ revoked: z.number().int() }),
});

export const hubSessionCheckEndpoint = defineEndpoint({
  name: 'hubSessionCheck',
  program: 'server',
  method: 'POST',
  path: '/api/v1/hub/session/check/',
  auth: 'public',
  errors: ['unauthorized'],
  summary:
    "Hub to server (signed with the Hub's key): is this console session still live, what are its admin's scopes and the team's plan now. The Hub asks on every refresh of a Hub session.",
  input: z.object({ team_slug: z.string().min(1).max(100), sid: z.string().max(100), user_id: z.string().max(100) }),
  output: z.object({
    live: z.boolean(),
    scopes: z.array(z.enum(SCOPES)),
    /** Epoch ms; the console session's absolute expiry. */
    absolute_expires_at: z.number().nullable(),
    /** The team's plan now, for the access rules' team and organisation types (absent from an older server). */
    team_type: z.enum(TEAM_TYPES).optional(),
    organization_type: z.enum(ORGANIZATION_TYPES).optional(),
    /** When each time-bound scope falls away (epoch ms; just-in-time elevations): the Hub drops it then by itself. */
    scope_expiry: ScopeExpirySchema.optional(),
  }),
});

export const hubAdminRoleEndpoint = defineEndpoint({
  name: 'hubAdminRole',
  program: 'server',
  method: 'POST',
  path: '/api/v1/hub/admin/role/',
  auth: 'public',
  errors: ['unauthorized'],
  summary:
    "Hub to server (signed with the Hub's key): the admin scopes this email holds in the team now (none for a non-admin). The Hub asks before nominating a recovery admin: only a holder of recovery_agent may be one.",
  input: z.object({ team_slug: z.string().min(1).max(100), email: z.string().trim().min(1).max(254) }),
  output: z.object({ scopes: z.array(z.enum(SCOPES)) }),
});

/** At most this many addresses per admins check (one e-mail destination's recipients). */
export const HUB_ADMINS_CHECK_MAX = 20;

export const hubAdminsCheckEndpoint = defineEndpoint({
  name: 'hubAdminsCheck',
  program: 'server',
  method: 'POST',
  path: '/api/v1/hub/admins/check/',
  auth: 'public',
  errors: ['unauthorized'],
  summary:
    "Hub to server (signed with the Hub's key): which of these e-mail addresses are the team's administrators now (active, with at least one scope; an invitation not yet accepted does not count). The Hub asks before saving an alert rule's e-mail destination and again before each delivery.",
  input: z.object({
    team_slug: z.string().min(1).max(100),
    emails: z.array(z.string().trim().min(1).max(320)).min(1).max(HUB_ADMINS_CHECK_MAX),
  }),
  /** The addresses asked that are administrators, lowercased. */
  output: z.object({ admins: z.array(z.string()) }),
});
