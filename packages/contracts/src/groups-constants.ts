/** The zod-free constants of the groups, member devices and branding screens, for the console. */

/** Spec §9: the group list is fetched at once, with a huge page size; the table pages it locally. */
export const GROUPS_PAGE_SIZE = 10_000;
export const MAX_GROUP_NAME = 100;
/** Member emails the group list shows per group (spec §9: five badges, then `+n more`). */
export const GROUP_LIST_EMAILS = 5;
/** Spec §9 badges: 30 characters, 60 in the list, 5 shown before `+n more`. */
export const BADGE_MAX_CHARS = 30;
export const BADGE_MAX_CHARS_IN_LIST = 60;
export const BADGES_SHOWN = 5;
/** Priority levels an admin may give a group; NO_PRIORITY (999999) means none. */
export const MAX_PRIORITY_LEVEL = 9999;

export const HUB_AUTHENTICATION = ['authenticated', 'not_authenticated'] as const;
export type HubAuthentication = (typeof HUB_AUTHENTICATION)[number];
export const DEVICE_TYPES = ['desktop', 'mobile', 'browser_extension', 'web'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Logo images the console accepts: raster only (an SVG can carry script). */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_MIN_PX = 16;
export const LOGO_MAX_PX = 4096;
