/** Identity providers a SCIM connector is set up for: each has its own setup steps. */
export const SCIM_IDPS = ['entra', 'okta', 'onelogin', 'jumpcloud', 'google', 'generic'] as const;
export type ScimIdp = (typeof SCIM_IDPS)[number];
/** How long the previous token keeps working after a rotation, at most (hours). */
export const SCIM_MAX_OVERLAP_HOURS = 168;
export const SCIM_REQUESTS_PAGE_SIZE = 10;
export const MAX_SCIM_CONNECTOR_NAME = 80;
