import { z } from 'zod';
import { Device, Email, LoginSuccess } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';

/** A sign-in link's token: 32 random bytes, base64url. */
export const LinkToken = z.string().min(16, 'invalid or expired link').max(200, 'invalid or expired link');

/** A sign-in that ends outside the form also tells the console whose session it is. */
export const LinkLoginSuccess = LoginSuccess.extend({ email: z.string() });

export const appLoginTokenEndpoint = defineEndpoint({
  name: 'appLoginToken',
  program: 'server',
  method: 'POST',
  path: '/api/v1/app/console/login/token/',
  auth: 'session',
  access: { roles: ['super_admin'], teamTypes: ['family'] },
  summary:
    "The family app's request for a console sign-in link for its signed-in owner: a token for family/{token}, single-use, two minutes.",
  input: z.object({}).passthrough(),
  output: z.object({ token: z.string(), expires_in: z.number().int() }),
});

export const appLoginVerifyEndpoint = defineEndpoint({
  name: 'appLoginVerify',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/app/login/verify/',
  auth: 'public',
  errors: ['unauthorized'],
  summary:
    "family/{token}: the family app's one-time sign-in token, sent as 'Authorization: Basic {token}'. 401 when it is unknown, used or expired.",
  input: z.object({ device: Device }),
  output: LinkLoginSuccess,
});

export const emailLinkVerifyEndpoint = defineEndpoint({
  name: 'emailLinkVerify',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/email/link/verify/',
  auth: 'public',
  errors: ['invalid_link'],
  summary: 'The email-link verification page: checks the invitation token of the link and returns its email.',
  input: z.object({ token: LinkToken }),
  output: z.object({ email: z.string(), team_slug: z.string(), team_name: z.string() }),
});

export const ssoStartEndpoint = defineEndpoint({
  name: 'ssoStart',
  program: 'server',
  method: 'POST',
  path: '/sso/login/saml/request/',
  auth: 'public',
  errors: ['saml_client_generation_failed', 'sso_not_found'],
  summary:
    "Start SAML sign-in with one of the team's connectors; returns where to send the browser. The answer follows from the connector alone, whoever the email names (the ACS then refuses anyone but the team's admin who started), and the call shares the email step's per-client limit of unknown emails (429).",
  input: z.object({
    email: Email,
    config_uuid: z.string().uuid('sso_not_found'),
    team_slug: z.string().max(100).optional(),
  }),
  output: z.object({ redirect_url: z.string(), saml_request_id: z.string() }),
});

export const ssoVerifyTokenEndpoint = defineEndpoint({
  name: 'ssoVerifyToken',
  program: 'server',
  method: 'POST',
  path: '/sso/login/verify/token/',
  auth: 'public',
  errors: ['unauthorized'],
  summary: 'The SSO return page: exchanges the one-time token of a finished SAML sign-in for a session.',
  input: z.object({ token: LinkToken, device: Device, client_id: z.string().max(100).optional() }),
  output: LinkLoginSuccess,
});
