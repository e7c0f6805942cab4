import { z } from 'zod';
import { RULES } from './access.ts';
import { BackupCode, Email, LoginSuccess, OtpCode } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from './password-rules.ts';

const Empty = z.object({}).passthrough();

export { BackupCode };

/** A new password, checked on every call that sets one (the rule itself: password-rules.ts). */
export const NewPassword = z
  .string()
  .min(1, PASSWORD_MESSAGES.empty)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.tooShort)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.tooLong);

export const verifyTotpEndpoint = defineEndpoint({
  name: 'verifyTotp',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/verify/totp/',
  auth: 'public',
  errors: ['admin_not_found', 'email_notregistered', 'password_invalid', 'totp_invalid'],
  summary: 'Finish sign-in with the password and a code from the authenticator app.',
  input: z.object({
    email: Email,
    password: z.string().min(1, 'please enter your password').max(1024),
    team_slug: z.string().max(100),
    totp: OtpCode,
  }),
  output: LoginSuccess,
});

export const verifyRecoveryCodeEndpoint = defineEndpoint({
  name: 'verifyRecoveryCode',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/verify/recovery/code/',
  auth: 'public',
  errors: ['admin_not_found', 'code_invalid', 'password_invalid', 'email_notregistered'],
  summary: 'Finish sign-in with the password and a one-time backup code instead of the authenticator.',
  input: z.object({
    email: Email,
    password: z.string().min(1, 'please enter your password').max(1024),
    team_slug: z.string().max(100),
    recovery_code: BackupCode,
  }),
  output: LoginSuccess,
});

export const accountSecurityEndpoint = defineEndpoint({
  name: 'authType',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/type/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: 'How the signed-in admin signs in: auth type, password, authenticator, backup codes left.',
  input: Empty,
  output: z.object({
    auth_type: z.enum(['password', 'otp']),
    has_password: z.boolean(),
    totp_enabled: z.boolean(),
    recovery_codes_left: z.number().int(),
    security_keys: z.number().int(),
  }),
});

export const updateAuthTypeEndpoint = defineEndpoint({
  name: 'authTypeUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/type/update/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['password_invalid', 'totp_already_enabled'],
  summary: 'Switch between password (+ second factor) and emailed code only; needs the current password.',
  input: z.object({
    auth_type: z.enum(['password', 'otp']),
    password: z.string().min(1, 'please enter your password').max(1024),
  }),
  output: z.object({ code: z.literal('updated'), auth_type: z.enum(['password', 'otp']) }),
});

export const changePasswordEndpoint = defineEndpoint({
  name: 'changePassword',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/change/password/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['password_invalid'],
  summary: "Change the signed-in admin's password; other sessions are signed out.",
  input: z.object({ old_password: z.string().min(1, 'please enter your password').max(1024), new_password: NewPassword }),
  output: z.object({ code: z.literal('password_changed') }),
});

export const setFirstPasswordEndpoint = defineEndpoint({
  name: 'setFirstPassword',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/set/first/password/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['password_mismatch'],
  summary: 'Set a first password for a signed-in admin who has none (an account that signed in with emailed codes).',
  input: z.object({
    password: NewPassword,
    confirm_password: z.string().min(1, 'settingspage.retype_pwd_alert').max(1024),
  }),
  output: z.object({ code: z.literal('password_set') }),
});

export const TotpSetup = z.object({
  /** Base32 secret and otpauth URI: shown once, to be added to an authenticator app. */
  secret: z.string(),
  otpauth_url: z.string(),
});

export const totpRegisterEndpoint = defineEndpoint({
  name: 'totpRegister',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/totp/register/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['totp_already_enabled'],
  summary: 'Start setting up an authenticator app (no authenticator yet).',
  input: Empty,
  output: TotpSetup,
});

export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });

export const totpRegisterVerifyEndpoint = defineEndpoint({
  name: 'totpRegisterVerify',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/totp/register/verify/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['totp_invalid'],
  summary: 'Confirm the new authenticator with its first code; returns the backup codes, shown once.',
  input: z.object({ totp: OtpCode }),
  output: RecoveryCodes,
});

export const totpChangeEndpoint = defineEndpoint({
  name: 'totpChange',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/totp/change/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['totp_not_enabled'],
  summary: 'Start moving to another authenticator; needs a code from the current one.',
  input: z.object({ totp: OtpCode }),
  output: TotpSetup,
});

export const totpChangeVerifyEndpoint = defineEndpoint({
  name: 'totpChangeVerify',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/totp/change/verify/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['totp_invalid', 'totp_not_enabled'],
  summary: 'Confirm the new authenticator with its first code.',
  input: z.object({ totp: OtpCode }),
  output: z.object({ code: z.literal('totp_changed') }),
});

export const regenerateRecoveryCodesEndpoint = defineEndpoint({
  name: 'regenerateRecoveryCodes',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/regenerate/recovery/codes/',
  auth: 'session',
  access: RULES.anyAdmin,
  errors: ['totp_invalid', 'totp_not_enabled'],
  summary: 'Replace every backup code; needs a code from the authenticator. The new codes are shown once.',
  input: z.object({ totp: OtpCode }),
  output: RecoveryCodes,
});

/** The opaque token of a password-reset link (spec §4 Password reset). */
const PasswordRequest = z.string().min(16, 'invalid or expired link').max(200, 'invalid or expired link');

export const requestPasswordResetEndpoint = defineEndpoint({
  name: 'passwordResetRequest',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/password/reset/request/',
  auth: 'public',
  summary:
    'Email a link to set a new password. Replies the same whether or not the email is an administrator, so it tells nobody who is one.',
  input: z.object({ email: Email }),
  output: z.object({ code: z.literal('reset_requested') }),
});

export const validatePasswordRequestEndpoint = defineEndpoint({
  name: 'validatePasswordRequest',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/validate/password/request/',
  auth: 'public',
  errors: ['invalid_link'],
  summary: 'Check a password-reset link before asking for the new password.',
  input: z.object({ password_request: PasswordRequest }),
  output: z.object({ code: z.literal('valid'), email: z.string() }),
});

export const changePasswordRequestEndpoint = defineEndpoint({
  name: 'changePasswordRequest',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/change/password/request/',
  auth: 'public',
  errors: ['invalid_link', 'password_mismatch'],
  summary:
    "Set the new password with a reset link (its token in 'Authorization: Basic {token}', or password_request); the link then stops working and every session ends.",
  input: z.object({
    password_request: PasswordRequest.optional(),
    password: NewPassword,
    confirm_password: z.string().min(1, 'settingspage.retype_pwd_alert').max(1024),
  }),
  output: z.object({ code: z.literal('password_reset') }),
});

export const setPasswordFirstLoginEndpoint = defineEndpoint({
  name: 'setPasswordFirstLogin',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/set/password/first/',
  auth: 'public',
  errors: ['admin_not_found', 'password_mismatch', 'token_expired'],
  summary: 'Set the first password with the set_password_first token of verify/otp; completes sign-in.',
  input: z.object({
    email: Email,
    team_slug: z.string().max(100),
    token: z.string().min(16).max(200),
    password: NewPassword,
    confirm_password: z.string().min(1, 'settingspage.retype_pwd_alert').max(1024),
  }),
  output: LoginSuccess,
});

/** WebAuthn options and responses, passed through as JSON (their shape is the WebAuthn standard's). */
const WebAuthnJson = z.record(z.string(), z.unknown());
const SignInProof = {
  email: Email,
  password: z.string().min(1, 'please enter your password').max(1024),
  team_slug: z.string().max(100),
};

export const u2fRegisterOptionsEndpoint = defineEndpoint({
  name: 'u2fRegisterOptions',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/u2f/register/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: 'Start adding a security key (WebAuthn registration options).',
  input: Empty,
  output: z.object({ options: WebAuthnJson }),
});

export const u2fRegisterVerifyEndpoint = defineEndpoint({
  name: 'u2fRegisterVerify',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/u2f/register/verify/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: "Store the new security key after checking the authenticator's answer.",
  input: z.object({ response: WebAuthnJson, name: z.string().trim().max(60).default('') }),
  output: z.object({ code: z.literal('security_key_added') }),
});

export const u2fSignInOptionsEndpoint = defineEndpoint({
  name: 'u2fSignInOptions',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/u2f/options/',
  auth: 'public',
  errors: ['admin_not_found', 'password_invalid', 'email_notregistered'],
  summary: 'After the password: the challenge for a security key (reply of verify/password was u2f_required).',
  input: z.object(SignInProof),
  output: z.object({ options: WebAuthnJson }),
});

export const verifyU2fEndpoint = defineEndpoint({
  name: 'verifyU2f',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/verify/u2f/',
  auth: 'public',
  errors: ['admin_not_found', 'password_invalid', 'u2f_invalid', 'email_notregistered'],
  summary: 'Finish sign-in with the password and a security key.',
  input: z.object({ ...SignInProof, response: WebAuthnJson }),
  output: LoginSuccess,
});
