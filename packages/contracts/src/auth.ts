import { z } from 'zod';
import { SCOPES, type Scope } from './access.ts';
import { CONSOLE_TYPE, OTP_LENGTH } from './constants.ts';
import { defineEndpoint } from './endpoint.ts';
import { LOGOUT_REASONS } from './logout.ts';
import { EMAIL_PATTERN } from './messages.ts';

/** Emails are trimmed before use (spec §5); compared case-insensitively. */
export const Email = z
  .string()
  .trim()
  .min(1, 'please enter your email')
  .max(254, 'loginpage.enter_valid_email')
  .regex(EMAIL_PATTERN, 'loginpage.enter_valid_email')
  .transform((e) => e.toLowerCase());

export const OtpCode = z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), 'invalid or expired code entered');

/** Backup codes are shown with a dash and spaces around; trimmed and required (spec §5). */
export const BackupCode = z.string().trim().min(1, 'this field is required').max(64, 'invalid backup code');

export const Device = z
  .object({
    browser: z.string().max(100).optional(),
    version: z.string().max(50).optional(),
    id: z.string().max(100).optional(),
    lang: z.string().max(20).optional(),
    os: z.string().max(50).optional(),
    os_version: z.string().max(50).optional(),
    time_zone: z.string().max(60).optional(),
    type: z.string().max(30).optional(),
    vendor: z.string().max(60).optional(),
  })
  .optional();

export const AuthType = z.enum(['password', 'otp']);

export const TeamChoice = z.object({ team_slug: z.string(), team_name: z.string() });

const SsoConfiguration = z.object({ config_uuid: z.string(), config_name: z.string() });
const TeamOfEmail = { team_slug: z.string(), team_name: z.string() };

export const loginEndpoint = defineEndpoint({
  name: 'login',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/login/',
  auth: 'public',
  errors: ['admin_not_found', 'email_notregistered', 'invalid_link'],
  summary:
    'Check an email: which teams it administers and how it signs in. With on_boarding_verification instead of an email, an invitation link: its email is sent a code.',
  input: z
    .object({
      email: Email.optional(),
      team_slug: z.string().max(100).optional(),
      console_type: z.literal(CONSOLE_TYPE).default(CONSOLE_TYPE),
      device: Device,
      resend_otp: z.boolean().optional(),
      /** On the SSO-or-code choice: the admin chose the emailed code. */
      signin_with_otp: z.boolean().optional(),
      /** The token of an onboarding invitation link (spec §7 "device plus on_boarding_verification"). */
      on_boarding_verification: z.string().min(16, 'invalid or expired link').max(200, 'invalid or expired link').optional(),
    })
    .refine((v) => v.email !== undefined || v.on_boarding_verification !== undefined, {
      message: 'please enter your email',
      path: ['email'],
    }),
  output: z.discriminatedUnion('code', [
    z.object({ code: z.literal('select_team'), teams: z.array(TeamChoice) }),
    z.object({
      code: z.literal('ok'),
      ...TeamOfEmail,
      auth_type: AuthType,
      is_sso_active: z.boolean(),
      /** True when an email code was sent because the account signs in with codes only. */
      otp_sent: z.boolean(),
      sso_configurations: z.array(SsoConfiguration).optional(),
    }),
    /** An emailed-code admin of a team with SSO: the choice page, no code sent yet. */
    z.object({ code: z.literal('signin_with_sso_or_otp'), ...TeamOfEmail, sso_configurations: z.array(SsoConfiguration) }),
    /** The team requires SSO of this admin: the console starts it. */
    z.object({ code: z.literal('sso_enforced'), ...TeamOfEmail, sso_configurations: z.array(SsoConfiguration) }),
    /** An onboarding link was accepted: a code went to its email. */
    z.object({ code: z.literal('onboarding_otp_sent'), ...TeamOfEmail, email: z.string() }),
  ]),
});

export const verifyPasswordEndpoint = defineEndpoint({
  name: 'verifyPassword',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/verify/password/',
  auth: 'public',
  errors: ['admin_not_found', 'email_notregistered', 'password_invalid', 'sso_enforced'],
  summary: 'Check the password; sends an email code unless an authenticator is required.',
  input: z.object({
    email: Email,
    password: z.string().min(1, 'please enter your password').max(1024),
    team_slug: z.string().max(100),
    resend_otp: z.boolean().optional(),
  }),
  output: z.object({ code: z.enum(['otp_sent', 'totp_required', 'u2f_required']) }),
});

export const TokenPair = z.object({
  access: z.string(),
  refresh_token: z.string(),
  /** Epoch milliseconds. */
  expires_at: z.number(),
  refresh_expires_at: z.number(),
});
export type TokenPair = z.infer<typeof TokenPair>;

/** A one-minute grant the console exchanges at the team's Hub for Hub tokens. */
export const AuxCode = z.object({
  server_url: z.string(),
  access: z.string(),
  expires_at: z.number(),
  team_slug: z.string(),
});

export const LoginSuccess = z.object({
  token: TokenPair,
  team_slug: z.string(),
  aux_code: AuxCode.nullable(),
});
export type LoginSuccess = z.infer<typeof LoginSuccess>;

/** An admin without a password proved the email: the token lets them set one (10 minutes, once). */
export const SetPasswordFirst = z.object({ code: z.literal('set_password_first'), set_auth_token: z.string() });

export const verifyOtpEndpoint = defineEndpoint({
  name: 'verifyOtp',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/verify/otp/',
  auth: 'public',
  errors: [
    'admin_not_found',
    'code_invalid',
    'invalid_link',
    'otp_invalid',
    'password_invalid',
    'sso_enforced',
    'email_notregistered',
  ],
  summary:
    'Finish sign-in with the emailed code (an admin without a password sets one first: set_password_first), ' +
    'or, for an admin who lost the authenticator, with the password and a one-time backup code (recovery_code, spec §7).',
  input: z
    .object({
      email: Email,
      otp: OtpCode.optional(),
      /** A backup code instead of the authenticator (spec §7); each code works once. */
      recovery_code: BackupCode.optional(),
      password: z.string().max(1024).optional(),
      team_slug: z.string().max(100),
      client_id: z.string().max(100).optional(),
      device: Device,
      /** The onboarding link's token, when the code was sent for one (spent with the code). */
      on_boarding_verification: z.string().min(16).max(200).optional(),
    })
    .refine((v) => v.otp !== undefined || v.recovery_code !== undefined, {
      message: 'invalid or expired code entered',
      path: ['otp'],
    }),
  output: z.union([LoginSuccess, SetPasswordFirst]),
});

export const refreshTokenEndpoint = defineEndpoint({
  name: 'refreshToken',
  program: 'server',
  method: 'POST',
  path: '/oauth/refresh/token/',
  auth: 'public',
  errors: ['invalid_grant'],
  encoding: 'form',
  summary: 'Rotate a refresh token. A reused refresh token revokes its whole session.',
  input: z.object({
    client_id: z.string().max(100).optional(),
    grant_type: z.literal('refresh_token'),
    refresh_token: z.string().min(1).max(200),
  }),
  output: TokenPair,
});

export const signoutEndpoint = defineEndpoint({
  name: 'signout',
  program: 'server',
  method: 'POST',
  path: '/api/v1/user/signout/',
  auth: 'session',
  access: { roles: SCOPES as readonly Scope[], teamTypes: ['organization', 'family'] },
  summary:
    "End the current session. `reason` team_switch (with `to_team`, the team being switched to) records the switch as its own event in the team's event log.",
  input: z.object({
    key: z.string().optional(),
    reason: z.enum(LOGOUT_REASONS).optional(),
    to_team: z.string().trim().max(100).optional(),
  }),
  output: z.object({ code: z.literal('signed_out') }),
});
