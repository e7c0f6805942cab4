/**
 * The people, groups, member-device and branding screens, one lazy chunk: fewer chunk splits for the
 * sign-in bundle to share. Gathered here, not in one of the features, so no feature imports another's screens.
 */

export * from '../../features/branding/screens.ts';
export * from '../../features/groups/screens.ts';
export * from '../../features/people/screens.ts';
