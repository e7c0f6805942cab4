/** The longest name a security key may have. */
export const SECURITY_KEY_NAME_MAX = 60;

/**
 * SSO failure codes (spec §8) and the message key the SSO error page shows beside 'Error: {code}'.
 * Zod-free, like everything in this file: the sign-in pages read them without loading the schemas.
 */
export const SSO_ERROR_KEYS: Record<string, string> = {
  '45002': 'sso_email_validation_failed',
  '45004': 'sso_not_found',
  '45005': 'saml_client_generation_failed',
  '45013': 'sso_config_already_tested',
  '45031': 'sso_email_attribute_missing',
  '45032': 'sso_email_mismatch',
  '45037': 'sso_attributes_missing',
  '45038': 'authentication failed',
  '45044': 'idp_initiated_login_not_supported',
};

/** Spec §4 SSO return: the page asks for the sign-in once a second, at most five times, then shows 45038. */
export const SSO_POLL_INTERVAL_MS = 1000;
export const SSO_POLL_TRIES = 5;
export const SSO_AUTH_FAILED = '45038';

/** The message key for an SSO code; unknown codes read as a failed authentication. */
export const ssoErrorKey = (code: string): string => SSO_ERROR_KEYS[code] ?? 'authentication failed';
