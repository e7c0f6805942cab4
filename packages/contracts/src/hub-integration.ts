import { z } from 'zod';
import { RULES } from './access.ts';
import { Device } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';
import { AuxServiceSchema } from './integration.ts';

/**
 * Calls between the licence server and a Hub. The server signs each with the secret of the
 * credential (kid), audience SERVER_CALL_AUDIENCE, for one minute; `public` here means "not a
 * console or Hub session": the Hub checks that signature itself.
 */
export const SERVER_CALL_AUDIENCE = 'latchkey-hub-server';

const HubState = z.object({
  version: z.string(),
  /** What this Hub's version runs. */
  offered: z.array(AuxServiceSchema),
  /** What the team has switched on at this Hub. */
  enabled: z.array(AuxServiceSchema),
});
export type HubState = z.infer<typeof HubState>;

export const hubVerifyEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/v1/integrate/verify/',
  auth: 'public',
  summary: 'Server to Hub (signed with the credential): is the credential registered here, and what runs.',
  input: z.object({ team_slug: z.string().max(100) }),
  output: HubState,
});

export const hubSetServicesEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/v1/integrate/services/',
  auth: 'public',
  summary: 'Server to Hub (signed with the credential): the services the team has switched on.',
  input: z.object({ team_slug: z.string().max(100), enabled: z.array(AuxServiceSchema).max(10) }),
  output: HubState,
});

export const hubDeleteConnectorEndpoint = defineEndpoint({
  method: 'POST',
  path: '/delete/connector/',
  auth: 'hubAuth',
  access: RULES.integration,
  summary: "Removes the team's registration from this Hub; every Hub session of the team ends.",
  input: z.object({ team_slug: z.string().max(100), device: Device }),
  output: z.object({ code: z.literal('connector_deleted') }),
});

export const hubEnabledServicesEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/v1/hub/services/',
  auth: 'hubAuth',
  access: RULES.anyAdmin,
  summary: 'The services the team has switched on at this Hub, and its version.',
  input: z.object({ team_slug: z.string().max(100) }),
  output: HubState,
});
