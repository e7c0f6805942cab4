/** Business constants and limits of spec §9, shared by web, server and hub. */
export const CONSOLE_VERSION = '2.7.2';
export const MAX_LICENCES = 500;
export const UNLIMITED = -1;
export const NO_PRIORITY = 999999;
export const MP_MIN_LENGTH_CAP = 1000;
export const DEFAULT_PAGE_SIZE = 10;
export const OTP_LENGTH = 6;
export const TOKEN_EXPIRY_MARGIN_MS = 2 * 60 * 1000;
export const QUERY_CACHE_LIFETIME_MS = 30 * 1000;
export const TOAST_MS = 5000;
export const COPIED_TOOLTIP_MS = 2000;
export const WIDE_LAYOUT_MIN_PX = 992;
export const CONSOLE_TYPE = 'team_console';

/** Hub versions that unlock each console feature (spec §1). */
export const FEATURE_VERSIONS = {
  audit: '2.1',
  recovery_link: '1.09',
  recovery_notification: '2.0',
  sharing: '2.1',
  sharing_v2: '2.2',
  siem: '2.0',
} as const;

/** Spec §9 breakpoints, in px. */
export const BREAKPOINTS = { xs: 0, sm: 576, md: 768, lg: 992, xl: 1200, xxl: 1400 } as const;

/** Where admins reach support from the sign-in pages. */
export const SUPPORT_EMAIL = 'support@latchkey.example';
