/**
 * The i18n key the console shows for an error code (spec §8). Codes not listed show the server's
 * description, or 'Something went wrong'.
 */
export const ERROR_MESSAGE_KEYS: Partial<Record<string, string>> = {
  email_notregistered: 'email not registered',
  query_blocked: 'registration blocked',
  otp_invalid: 'invalid or expired code entered',
  totp_invalid: 'invalid or expired code entered',
  code_invalid: 'invalid backup code',
  password_invalid: 'invalid password',
  name_already_exists: 'company_name_existing',
  admin_already_exists: 'admin_already_registered',
  request_already_exists: 'team_purchase_request_exists',
  domain_already_exists: 'Domain License Limit Exceeded',
  password_mismatch: 'settingspage.pwd_no_match',
  token_expired: 'loginpage.token_expired',
  invalid_link: 'invalid or expired link',
  too_many_requests_msg: 'too_many_requests_msg',
  url_not_accessible: 'siem_url_unreachable',
};

/**
 * A practical address check (one @, a dot in the domain, no spaces), shared by server and console.
 * Quotes, brackets, commas, backslashes and invisible characters (controls, direction marks) are
 * refused too: mail libraries read them as address syntax (a display name, a second address), so
 * the address mailed would not be the address checked.
 */
export const EMAIL_PATTERN =
  /^[^\s@"(),:;<>[\]\\\p{Cc}\p{Cf}]+@[^\s@."(),:;<>[\]\\\p{Cc}\p{Cf}]+(\.[^\s@."(),:;<>[\]\\\p{Cc}\p{Cf}]+)+$/u;

/** Spec §5: emails are trimmed, required, and valid; returns the message key of the problem. */
export function emailProblem(value: string): string | null {
  const email = value.trim();
  if (!email) return 'please enter your email';
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) return 'loginpage.enter_valid_email';
  return null;
}
