/**
 * A new password (spec §5: a strong password is required). Long enough to resist guessing even
 * when hashed offline; no composition rules (NIST SP 800-63B). The server's `NewPassword` schema and
 * every console form that sets a password use these, so the two can never disagree.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

export const PASSWORD_MESSAGES = {
  empty: 'settingspage.enter_pwd_alert',
  tooShort: 'settingspage.pwd_too_short',
  tooLong: 'settingspage.pwd_too_long',
  retypeEmpty: 'settingspage.retype_pwd_alert',
  mismatch: 'settingspage.pwd_no_match',
} as const;

export interface NewPasswordProblem {
  field: 'password' | 'again';
  /** The message key shown under the field. */
  key: string;
}

/** The first thing wrong with a new password and its retype, in the order a person fixes them. */
export function newPasswordProblem(password: string, again: string): NewPasswordProblem | null {
  if (!password) return { field: 'password', key: PASSWORD_MESSAGES.empty };
  if (!again) return { field: 'again', key: PASSWORD_MESSAGES.retypeEmpty };
  if (password !== again) return { field: 'again', key: PASSWORD_MESSAGES.mismatch };
  if (password.length < PASSWORD_MIN_LENGTH) return { field: 'password', key: PASSWORD_MESSAGES.tooShort };
  if (password.length > PASSWORD_MAX_LENGTH) return { field: 'password', key: PASSWORD_MESSAGES.tooLong };
  return null;
}
