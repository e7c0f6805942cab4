import { z } from 'zod';
import { Device } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';

export const hubHealthEndpoint = defineEndpoint({
  name: 'hubHealth',
  program: 'hub',
  method: 'GET',
  path: '/api/v1/server/health/status/',
  auth: 'public',
  summary: 'Unprotected: is the Hub up, and which version it runs.',
  input: z.object({}),
  output: z.object({ status: z.literal('ok'), version: z.string() }),
});

export const hubConnectorEndpoint = defineEndpoint({
  name: 'hubConnector',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/integrate/connector/',
  auth: 'public',
  summary:
    'Unprotected: whether this Hub is registered for a team, and what it offers. Registration itself is a signed server-to-Hub call (`/api/v1/integrate/register/`), never made from the browser.',
  input: z.object({ team_slug: z.string().max(100) }),
  output: z.object({
    registered: z.boolean(),
    version: z.string(),
    services: z.array(z.string()),
  }),
});

export const HubTokens = z.object({
  access: z.string(),
  refresh: z.string(),
  expires_at: z.number(),
  refresh_expires_at: z.number(),
  hub_version: z.string(),
});
export type HubTokens = z.infer<typeof HubTokens>;

export const hubTokenEndpoint = defineEndpoint({
  name: 'hubToken',
  program: 'hub',
  method: 'POST',
  path: '/auth/token/',
  auth: 'public',
  errors: ['forbidden', 'hub_not_registered', 'token_expired', 'unauthorized'],
  summary: "Exchange the server's aux grant (Authorization: Bearer) for Hub tokens.",
  input: z.object({ team_slug: z.string().max(100), device: Device }),
  output: HubTokens,
});

export const hubRefreshEndpoint = defineEndpoint({
  name: 'hubRefresh',
  program: 'hub',
  method: 'POST',
  path: '/auth/token/refresh/',
  auth: 'public',
  errors: ['invalid_grant', 'server_unreachable'],
  summary: 'Rotate a Hub refresh token; reuse revokes the family.',
  input: z.object({ refresh: z.string().min(1).max(200) }),
  output: HubTokens,
});

export const hubWhoAmIEndpoint = defineEndpoint({
  name: 'hubWhoAmI',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/session/',
  auth: 'hubAuth',
  summary: 'The console user a Hub token belongs to.',
  input: z.object({ team_slug: z.string().max(100) }),
  output: z.object({ email: z.string(), team_slug: z.string(), scopes: z.array(z.string()) }),
});
