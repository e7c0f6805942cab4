/** The zod-free constants of the members screens (and the dashboard's member counts), for the console's client entry. */
/** How a member uses the apps (spec §9 Adoption categories). */
export const APP_USAGES = ['active', 'inactive', 'unresponsive'] as const;
export type AppUsage = (typeof APP_USAGES)[number];
export const LICENSE_STATUSES = ['licensed', 'unlicensed'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];
export const MEMBER_STATUSES = ['invited', 'active', 'suspended'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Most emails one invite or bulk action takes (a CSV file of a department, not the whole company). */
export const MAX_BULK_EMAILS = 500;
export const MAX_PAGE_SIZE = 100;
