/** Identity provider presets of the connector form; 'azure' is Microsoft Entra ID. */
export const IDP_TYPES = ['azure', 'okta', 'google', 'onelogin', 'jumpcloud', 'generic_saml'] as const;
export type IdpType = (typeof IDP_TYPES)[number];
/** Which signature the ACS demands of a response. */
export const SIGN_MODES = ['assertion', 'response', 'both'] as const;
export type SignMode = (typeof SIGN_MODES)[number];
export const SSO_CONFIG_NAME_MAX = 100;
/** The longest identity-provider metadata address accepted. */
export const SSO_METADATA_URL_MAX = 2000;
/** The largest metadata document or SAMLResponse accepted. */
export const SSO_METADATA_MAX_BYTES = 512 * 1024;
/** The BroadcastChannel the test window reports on (spec §4 SSO return). */
export const SSO_TEST_CHANNEL = 'latchkey-sso-test';
