/** Just-in-time admin rights: how long one elevation may last, in minutes (15 min – 8 h). */
export const ELEVATION_MIN_MINUTES = 15;
export const ELEVATION_MAX_MINUTES = 480;
/** The durations the console offers; any whole minute in the range is accepted. */
export const ELEVATION_DURATIONS = [15, 30, 60, 120, 240, 480] as const;
export const ELEVATION_REASON_MAX = 500;

/** The approval action of a request for elevation (features/approvals). */
export const ELEVATE_ACTION = 'admins.elevate';

/** Why an elevation ended. */
export const ELEVATION_END_REASONS = ['expired', 'dropped', 'withdrawn', 'rejected', 'settings_off', 'admin_removed'] as const;
