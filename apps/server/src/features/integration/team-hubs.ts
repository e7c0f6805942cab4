import type { Queryable } from '@latchkey/runtime';
import { integrationRepository as repo } from './integration.repository.ts';
import type { IntegrationLookups } from './integration-lookups.ts';

/** The set-up Hubs of the given teams, each with its team's slug: where events and ended sessions go. */
export async function setUpHubsOfTeams(
  q: Queryable,
  teamIds: string[],
  lookups: IntegrationLookups,
): Promise<{ server_url: string; credential_id: string; team_slug: string }[]> {
  const hubs = await repo.setUpHubsOfTeams(q, teamIds);
  if (hubs.length === 0) return [];
  const slugs = await lookups.teamSlugs(q, [...new Set(hubs.map((h) => h.team_id))]);
  return hubs.flatMap((h) => {
    const team_slug = slugs.get(h.team_id);
    return team_slug ? [{ server_url: h.server_url, credential_id: h.credential_id, team_slug }] : [];
  });
}
