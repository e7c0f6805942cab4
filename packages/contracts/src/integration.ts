import { z } from 'zod';
import { AUX_SERVICES, RULES } from './access.ts';
import { Device } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';
import { AUX_SERVICE_FLAGS, type AuxServiceFlag, HOSTED_HUB_KEY, HOSTING_PREFERENCES } from './integration-constants.ts';
import { HubServer } from './team.ts';

const FLAGS = Object.keys(AUX_SERVICE_FLAGS) as [AuxServiceFlag, ...AuxServiceFlag[]];
export const AuxServiceFlagSchema = z.enum(FLAGS);
export const AuxServiceSchema = z.enum(AUX_SERVICES);

const CredentialId = z.string().min(1).max(200);
const CredentialName = z.string().trim().min(1, 'this field is required').max(60);

export const Credential = z.object({
  credential_id: z.string(),
  name: z.string(),
  /** The Hub this credential is set up on, or null while it waits for setup. */
  server_url: z.string().nullable(),
  hub_version: z.string().nullable(),
  created_at: z.string(),
});
export type Credential = z.infer<typeof Credential>;

export const credentialsEndpoint = defineEndpoint({
  name: 'credentials',
  program: 'server',
  method: 'POST',
  path: '/api/v1/credentials/',
  auth: 'session',
  access: RULES.integration,
  summary: "The team's Hub credentials, and the Hub each is set up on.",
  input: z.object({}),
  output: z.object({ credentials: z.array(Credential) }),
});

export const credentialsAddEndpoint = defineEndpoint({
  name: 'credentialsAdd',
  program: 'server',
  method: 'POST',
  path: '/api/v1/credentials/add/',
  auth: 'session',
  access: RULES.integration,
  summary:
    'Creates a Hub credential: a name for one connection to a Hub. It carries no secret; the server signs for it with its own key.',
  input: z.object({ name: CredentialName }),
  output: Credential,
});

export const credentialsUpdateEndpoint = defineEndpoint({
  name: 'credentialsUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/credentials/update/',
  auth: 'session',
  access: RULES.integration,
  errors: ['not_found'],
  summary: 'Renames a Hub credential.',
  input: z.object({ credential_id: CredentialId, name: CredentialName }),
  output: Credential,
});

export const credentialsDeleteEndpoint = defineEndpoint({
  name: 'credentialsDelete',
  program: 'server',
  method: 'POST',
  path: '/api/v1/credentials/delete/',
  auth: 'session',
  access: RULES.integration,
  errors: ['not_found'],
  summary: 'Deletes a Hub credential; a Hub set up with it is disconnected and its services stop.',
  input: z.object({ credential_id: CredentialId }),
  output: z.object({ code: z.literal('credential_deleted') }),
});

export const credentialsSetupEndpoint = defineEndpoint({
  name: 'credentialsSetup',
  program: 'server',
  method: 'POST',
  path: '/api/v1/credentials/setup/',
  auth: 'session',
  access: RULES.integration,
  errors: ['aux_server_not_connected', 'setup_key_invalid', 'not_found'],
  summary:
    "Connects the Hub at server_url with a credential: the server registers it at the Hub in a signed call. A team's first credential on a Hub needs the setup key the Hub's operator minted for the team; a further one is vouched for by the server's key the Hub already trusts.",
  input: z.object({
    device: Device,
    [HOSTED_HUB_KEY]: z.object({
      credential_id: CredentialId,
      server_url: z.string().trim().min(1).max(300),
      setup_key: z.string().trim().max(500).optional(),
    }),
  }),
  output: HubServer,
});

export const hostingPreferencesEndpoint = defineEndpoint({
  name: 'hostingPreferences',
  program: 'server',
  method: 'POST',
  path: '/api/v1/aux/hosting/preferences/',
  auth: 'session',
  access: RULES.integration,
  summary:
    'Where the team runs its auxiliary services; sends `hosting` to change it. While a Hub is connected the answer is self_hosted: not_set is refused (not_allowed).',
  input: z.object({ hosting: z.enum(HOSTING_PREFERENCES).optional() }),
  output: z.object({ hosting: z.enum(HOSTING_PREFERENCES), product: z.literal(HOSTED_HUB_KEY) }),
  errors: ['not_allowed'],
});

const ToggleReply = z.object({ code: z.literal('services_updated'), server: HubServer });

export const enableAuxServicesEndpoint = defineEndpoint({
  name: 'enableAuxServices',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/enable/aux/services/',
  auth: 'session',
  access: RULES.integration,
  errors: ['auth_not_set', 'aux_server_not_connected', 'not_allowed'],
  summary: 'Switches services on at the Hub of a credential; the server asks the Hub first.',
  input: z.object({ credential_id: CredentialId, services: z.array(AuxServiceFlagSchema).min(1).max(FLAGS.length) }),
  output: ToggleReply,
});

export const disableAuxServicesEndpoint = defineEndpoint({
  name: 'disableAuxServices',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/disable/aux/services/',
  auth: 'session',
  access: RULES.integration,
  errors: ['auth_not_set'],
  summary: "Switches services off at the team's Hub; the server tells the Hub first.",
  input: z.object({ services: z.array(AuxServiceFlagSchema).min(1).max(FLAGS.length) }),
  output: ToggleReply,
});

export const teamServiceEndpoint = defineEndpoint({
  name: 'teamService',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/service/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: "One auxiliary service's state at the team's first Hub, as the route guards read it (no Hub call).",
  input: z.object({ service: AuxServiceSchema }),
  output: z.object({
    service: AuxServiceSchema,
    enabled: z.boolean(),
    status: z.number().int(),
    hub_version: z.string().nullable(),
  }),
});
