import { useSession } from './session.ts';

/** The signed-in team's slug; every query key starts with it so one team's cache never shows another's. */
export const useTeamSlug = (): string => useSession()?.team_slug ?? '';
