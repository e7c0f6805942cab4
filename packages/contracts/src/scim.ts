import { z } from 'zod';
import { RULES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';
import { MAX_SCIM_CONNECTOR_NAME, SCIM_IDPS, SCIM_MAX_OVERLAP_HOURS } from './scim-constants.ts';

export * from './scim-constants.ts';

const ConnectorId = z.string().uuid('No such connector.');

export const ScimConnector = z.object({
  id: z.string(),
  idp: z.enum(SCIM_IDPS),
  name: z.string(),
  /** The token's last four characters, to tell tokens apart. */
  token_hint: z.string(),
  created_at: z.string(),
  rotated_at: z.string().nullable(),
  /** Until when the token before the last rotation is still accepted. */
  previous_valid_until: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_request_at: z.string().nullable(),
});
export type ScimConnector = z.infer<typeof ScimConnector>;

export const ScimRequest = z.object({
  id: z.string(),
  at: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});
export type ScimRequest = z.infer<typeof ScimRequest>;

/** A new or rotated connector: the token is in this reply only, never again. */
const WithToken = z.object({ connector: ScimConnector, token: z.string(), tenant_url: z.string() });

export const scimConnectorsEndpoint = defineEndpoint({
  name: 'scimConnectors',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/scim/connectors/',
  auth: 'session',
  access: RULES.scim,
  summary: "The team's SCIM connectors and the tenant URL identity providers call.",
  input: z.object({}).passthrough(),
  output: z.object({ results: z.array(ScimConnector), tenant_url: z.string() }),
});

export const scimConnectorCreateEndpoint = defineEndpoint({
  name: 'scimConnectorCreate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/scim/connector/create/',
  auth: 'session',
  access: RULES.scim,
  errors: ['approval_required'],
  summary: 'Create a SCIM connector for an identity provider; its bearer token is shown once.',
  input: z.object({
    idp: z.enum(SCIM_IDPS),
    name: z
      .string()
      .trim()
      .min(1, 'this field is required')
      .max(MAX_SCIM_CONNECTOR_NAME, `The name can be at most ${MAX_SCIM_CONNECTOR_NAME} characters.`),
  }),
  output: WithToken,
});

export const scimConnectorRotateEndpoint = defineEndpoint({
  name: 'scimConnectorRotate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/scim/connector/rotate/',
  auth: 'session',
  access: RULES.scim,
  errors: ['not_found', 'approval_required'],
  summary: 'A new bearer token for a connector; the previous one works for the overlap window (hours, 0 ends it now).',
  input: z.object({ id: ConnectorId, overlap_hours: z.number().int().min(0).max(SCIM_MAX_OVERLAP_HOURS).default(24) }),
  output: WithToken,
});

export const scimConnectorRevokeEndpoint = defineEndpoint({
  name: 'scimConnectorRevoke',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/scim/connector/revoke/',
  auth: 'session',
  access: RULES.scim,
  errors: ['not_found', 'approval_required'],
  summary: 'Revoke a connector: its tokens stop working at once; the groups it managed become editable in the console.',
  input: z.object({ id: ConnectorId }),
  output: z.object({ code: z.literal('updated') }),
});

export const scimConnectorRequestsEndpoint = defineEndpoint({
  name: 'scimConnectorRequests',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/scim/connector/requests/',
  auth: 'session',
  access: RULES.scim,
  errors: ['not_found'],
  summary: "A connector's request log, newest first (method, path, status, duration, error).",
  input: z.object({ id: ConnectorId, page: z.number().int().min(1).max(100000).default(1) }),
  output: z.object({ results: z.array(ScimRequest), pages: z.number().int(), count: z.number().int() }),
});
