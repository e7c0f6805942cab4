import { z } from 'zod';
import { RULES } from './access.ts';
import { Email } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';
import { IDP_TYPES, SIGN_MODES, SSO_CONFIG_NAME_MAX, SSO_METADATA_MAX_BYTES, SSO_METADATA_URL_MAX } from './sso-constants.ts';

export * from './sso-constants.ts';
export * from './sso-presets.ts';

const ConfigUuid = z.string().uuid('sso_not_found');
const ConfigName = z.string().trim().min(1, 'this field is required').max(SSO_CONFIG_NAME_MAX);

/** Spec §3 SSO config, with what the console shows of its identity provider and its state. */
export const SsoConfig = z.object({
  config_uuid: z.string(),
  config_name: z.string(),
  idp_type: z.enum(IDP_TYPES),
  metadata_url: z.string().nullable(),
  has_metadata: z.boolean(),
  idp_entity_id: z.string().nullable(),
  idp_sso_url: z.string().nullable(),
  sign_mode: z.enum(SIGN_MODES),
  is_active: z.boolean(),
  tested_at: z.string().nullable(),
  /** awaiting_metadata → awaiting_test → tested (may be activated) → active. */
  status: z.enum(['awaiting_metadata', 'awaiting_test', 'tested', 'active']),
});
export type SsoConfig = z.infer<typeof SsoConfig>;

/** The service provider's side, to copy into the identity provider. */
export const SsoServiceProvider = z.object({
  entity_id: z.string(),
  acs_url: z.string(),
  certificate: z.string(),
  metadata_xml: z.string(),
});

const ConfigReply = z.object({ code: z.literal('updated'), config: SsoConfig });

export const ssoConfigCreateEndpoint = defineEndpoint({
  name: 'ssoConfigCreate',
  program: 'server',
  method: 'POST',
  path: '/sso/login/config/create/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['conflict', 'approval_required'],
  summary: 'Creates an SSO connector (inactive, waiting for its identity provider metadata).',
  input: z.object({ config_name: ConfigName, idp_type: z.enum(IDP_TYPES), sign_mode: z.enum(SIGN_MODES).optional() }),
  output: ConfigReply,
});

export const ssoConfigUpdateEndpoint = defineEndpoint({
  name: 'ssoConfigUpdate',
  program: 'server',
  method: 'POST',
  path: '/sso/login/config/update/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['sso_not_found', 'sso_metadata_invalid', 'conflict', 'approval_required'],
  summary:
    "Renames a connector or sets its identity provider: metadata fetched from metadata_url (through the SSRF guard) or the uploaded metadata_xml. A new identity provider clears the connector's test and deactivates it.",
  input: z.object({
    config_uuid: ConfigUuid,
    config_name: ConfigName.optional(),
    metadata_url: z.string().trim().max(SSO_METADATA_URL_MAX).optional(),
    metadata_xml: z.string().max(SSO_METADATA_MAX_BYTES, 'sso.metadata_too_large').optional(),
    sign_mode: z.enum(SIGN_MODES).optional(),
  }),
  output: ConfigReply,
});

const ConfigAction = z.object({ config_uuid: ConfigUuid });

export const ssoConfigActivateEndpoint = defineEndpoint({
  name: 'ssoConfigActivate',
  program: 'server',
  method: 'POST',
  path: '/sso/login/config/activate/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['sso_not_found', 'sso_not_tested', 'approval_required'],
  summary: 'Activates a connector: admins are offered SSO. Only after a successful test of its current identity provider.',
  input: ConfigAction,
  output: ConfigReply,
});

export const ssoConfigDeactivateEndpoint = defineEndpoint({
  name: 'ssoConfigDeactivate',
  program: 'server',
  method: 'POST',
  path: '/sso/login/config/deactivate/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['sso_not_found', 'approval_required'],
  summary: 'Deactivates a connector; enforcement pauses while no connector is active.',
  input: ConfigAction,
  output: ConfigReply,
});

export const ssoConfigDeleteEndpoint = defineEndpoint({
  name: 'ssoConfigDelete',
  program: 'server',
  method: 'POST',
  path: '/sso/login/config/delete/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['sso_not_found', 'approval_required'],
  summary: 'Deletes a connector and its pending requests.',
  input: ConfigAction,
  output: z.object({ code: z.literal('deleted') }),
});

export const ssoConfigsEndpoint = defineEndpoint({
  name: 'ssoConfigs',
  program: 'server',
  method: 'POST',
  path: '/sso/login/configs/',
  auth: 'session',
  access: RULES.superAdmin,
  summary: "The team's connectors and the service provider's side (entity ID, ACS URL, certificate, metadata XML).",
  input: z.object({}).passthrough(),
  output: z.object({ configs: z.array(SsoConfig), service_provider: SsoServiceProvider }),
});

export const SsoAdmin = z.object({ email: z.string(), name: z.string(), scopes: z.array(z.string()), excluded: z.boolean() });

export const SsoPolicy = z.object({
  enforce_sso: z.boolean(),
  /** True when enforcement is on and an active, tested connector makes it apply. */
  in_effect: z.boolean(),
  admins: z.array(SsoAdmin),
});

export const ssoPolicyEndpoint = defineEndpoint({
  name: 'ssoPolicy',
  program: 'server',
  method: 'POST',
  path: '/sso/login/policy/',
  auth: 'session',
  access: RULES.superAdmin,
  summary: "Whether SSO is enforced, and the team's admins with whether each is excluded from enforcement (spec §6).",
  input: z.object({}).passthrough(),
  output: SsoPolicy,
});

export const ssoPolicyUpdateEndpoint = defineEndpoint({
  name: 'ssoPolicyUpdate',
  program: 'server',
  method: 'POST',
  path: '/sso/login/policy/update/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['sso_not_tested', 'sso_break_glass', 'approval_required'],
  summary:
    'Switches SSO enforcement. On only with an active connector that passed its test, and only while a super admin with a password stays excluded (break-glass).',
  input: z.object({ enforce_sso: z.boolean() }),
  output: SsoPolicy,
});

export const ssoExcludedAdminsEndpoint = defineEndpoint({
  name: 'ssoExcludedAdmins',
  program: 'server',
  method: 'POST',
  path: '/sso/login/manage/excluded/admins/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['admin_not_in_team', 'sso_break_glass', 'approval_required'],
  summary: 'Adds admins to, or removes them from, the admins excluded from SSO enforcement (spec §6).',
  input: z.object({
    add_excluded_admins: z.array(Email).max(100).default([]),
    remove_excluded_admins: z.array(Email).max(100).default([]),
  }),
  output: SsoPolicy,
});

export const SsoCheck = z.object({ name: z.string(), passed: z.boolean() });

export const SsoTestResult = z.object({
  status: z.enum(['pending', 'success', 'failed']),
  response_key: z.string().nullable(),
  checks: z.array(SsoCheck),
  attributes: z
    .object({
      name_id: z.string().nullable(),
      email: z.string().nullable(),
      name: z.string().nullable(),
      groups: z.array(z.string()),
      other: z.record(z.string(), z.array(z.string())),
    })
    .nullable(),
  /** Whether the NameID or email is an admin of this team (who could sign in by SSO). */
  maps_to_admin: z.boolean().nullable(),
});
export type SsoTestResult = z.infer<typeof SsoTestResult>;

export const ssoStatusEndpoint = defineEndpoint({
  name: 'ssoStatus',
  program: 'server',
  method: 'POST',
  path: '/sso/login/status/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['not_found'],
  summary: 'The result of a connector test (saml_request_id): what the identity provider sent and which checks passed.',
  input: z.object({ saml_request_id: z.string().min(1).max(100) }),
  output: SsoTestResult,
});

export const ssoTestStartEndpoint = defineEndpoint({
  name: 'ssoTestStart',
  program: 'server',
  method: 'POST',
  path: '/sso/login/saml/test/request/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['sso_not_found', 'saml_client_generation_failed', 'sso_config_already_tested'],
  summary:
    "Test configuration: a SAML request for one of the team's connectors (active or not) whose result only the tester reads.",
  input: z.object({ config_uuid: ConfigUuid }),
  output: z.object({ redirect_url: z.string(), saml_request_id: z.string() }),
});

export const ssoAcsEndpoint = defineEndpoint({
  name: 'ssoAcs',
  program: 'server',
  method: 'POST',
  path: '/sso/login/saml/acs/',
  auth: 'public',
  encoding: 'form',
  summary:
    "The assertion consumer service (HTTP-POST binding): checks the identity provider's SAMLResponse and answers 303 to the console's sso page, with a one-time token or the §8 code.",
  input: z.object({ SAMLResponse: z.string().min(1).max(SSO_METADATA_MAX_BYTES), RelayState: z.string().max(200).optional() }),
  output: z.object({}),
});
