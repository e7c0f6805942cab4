import { z } from 'zod';
import { RULES } from './access.ts';
import { Email, LoginSuccess, OtpCode } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from './password-rules.ts';
import { ROUTES } from './routes.ts';

const Empty = z.object({}).passthrough();

/** Backup codes are shown with a dash and spaces around; trimmed and required (spec §5). */
export const BackupCode = z.string().trim().min(1, 'this field is required').max(64, 'invalid backup code');

/** A new password, checked on every call that sets one (the rule itself: password-rules.ts). */
export const NewPassword = z
  .string()
  .min(1, PASSWORD_MESSAGES.empty)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.tooShort)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.tooLong);

export const verifyTotpEndpoint = defineEndpoint({
  ...ROUTES.verifyTotp,
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
  ...ROUTES.verifyRecoveryCode,
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
  ...ROUTES.authType,
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
  ...ROUTES.authTypeUpdate,
  access: RULES.anyAdmin,
  summary: 'Switch between password (+ second factor) and emailed code only; needs the current password.',
  input: z.object({
    auth_type: z.enum(['password', 'otp']),
    password: z.string().min(1, 'please enter your password').max(1024),
  }),
  output: z.object({ code: z.literal('updated'), auth_type: z.enum(['password', 'otp']) }),
});

export const changePasswordEndpoint = defineEndpoint({
  ...ROUTES.changePassword,
  access: RULES.anyAdmin,
  summary: "Change the signed-in admin's password; other sessions are signed out.",
  input: z.object({ old_password: z.string().min(1, 'please enter your password').max(1024), new_password: NewPassword }),
  output: z.object({ code: z.literal('password_changed') }),
});

export const setFirstPasswordEndpoint = defineEndpoint({
  ...ROUTES.setFirstPassword,
  access: RULES.anyAdmin,
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
  ...ROUTES.totpRegister,
  access: RULES.anyAdmin,
  summary: 'Start setting up an authenticator app (no authenticator yet).',
  input: Empty,
  output: TotpSetup,
});

export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });

export const totpRegisterVerifyEndpoint = defineEndpoint({
  ...ROUTES.totpRegisterVerify,
  access: RULES.anyAdmin,
  summary: 'Confirm the new authenticator with its first code; returns the backup codes, shown once.',
  input: z.object({ totp: OtpCode }),
  output: RecoveryCodes,
});

export const totpChangeEndpoint = defineEndpoint({
  ...ROUTES.totpChange,
  access: RULES.anyAdmin,
  summary: 'Start moving to another authenticator; needs a code from the current one.',
  input: z.object({ totp: OtpCode }),
  output: TotpSetup,
});

export const totpChangeVerifyEndpoint = defineEndpoint({
  ...ROUTES.totpChangeVerify,
  access: RULES.anyAdmin,
  summary: 'Confirm the new authenticator with its first code.',
  input: z.object({ totp: OtpCode }),
  output: z.object({ code: z.literal('totp_changed') }),
});

export const regenerateRecoveryCodesEndpoint = defineEndpoint({
  ...ROUTES.regenerateRecoveryCodes,
  access: RULES.anyAdmin,
  summary: 'Replace every backup code; needs a code from the authenticator. The new codes are shown once.',
  input: z.object({ totp: OtpCode }),
  output: RecoveryCodes,
});

/** The opaque token of a password-reset link (spec §4 Password reset). */
const PasswordRequest = z.string().min(16, 'invalid or expired link').max(200, 'invalid or expired link');

export const requestPasswordResetEndpoint = defineEndpoint({
  ...ROUTES.passwordResetRequest,
  summary:
    'Email a link to set a new password. Replies the same whether or not the email is an administrator, so it tells nobody who is one.',
  input: z.object({ email: Email }),
  output: z.object({ code: z.literal('reset_requested') }),
});

export const validatePasswordRequestEndpoint = defineEndpoint({
  ...ROUTES.validatePasswordRequest,
  summary: 'Check a password-reset link before asking for the new password.',
  input: z.object({ password_request: PasswordRequest }),
  output: z.object({ code: z.literal('valid'), email: z.string() }),
});

export const changePasswordRequestEndpoint = defineEndpoint({
  ...ROUTES.changePasswordRequest,
  summary: 'Set the new password with a reset link; the link then stops working and every session ends.',
  input: z.object({
    password_request: PasswordRequest,
    password: NewPassword,
    confirm_password: z.string().min(1, 'settingspage.retype_pwd_alert').max(1024),
  }),
  output: z.object({ code: z.literal('password_reset') }),
});

export const setPasswordFirstLoginEndpoint = defineEndpoint({
  ...ROUTES.setPasswordFirstLogin,
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
  ...ROUTES.u2fRegisterOptions,
  access: RULES.anyAdmin,
  summary: 'Start adding a security key (WebAuthn registration options).',
  input: Empty,
  output: z.object({ options: WebAuthnJson }),
});

export const u2fRegisterVerifyEndpoint = defineEndpoint({
  ...ROUTES.u2fRegisterVerify,
  access: RULES.anyAdmin,
  summary: "Store the new security key after checking the authenticator's answer.",
  input: z.object({ response: WebAuthnJson, name: z.string().trim().max(60).default('') }),
  output: z.object({ code: z.literal('security_key_added') }),
});

export const u2fSignInOptionsEndpoint = defineEndpoint({
  ...ROUTES.u2fSignInOptions,
  summary: 'After the password: the challenge for a security key (reply of verify/password was u2f_required).',
  input: z.object(SignInProof),
  output: z.object({ options: WebAuthnJson }),
});

export const verifyU2fEndpoint = defineEndpoint({
  ...ROUTES.verifyU2f,
  summary: 'Finish sign-in with the password and a security key.',
  input: z.object({ ...SignInProof, response: WebAuthnJson }),
  output: LoginSuccess,
});
