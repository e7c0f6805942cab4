import type { AccessContext, ApiMap, EndpointOutput } from '@latchkey/contracts/client';

type Out<K extends keyof ApiMap> = EndpointOutput<ApiMap[K]>;

/** The access context of spec §2 Route guard, from the team, the admin's scopes and the team's Hubs. */
export function accessContextOf(
  team: Out<'teamInfo'>,
  scopes: Out<'adminScope'>['scope'],
  servers: Out<'auxServices'>['servers'],
): AccessContext {
  const first = servers[0]?.services ?? {};
  return {
    scopes,
    teamType: team.team_type,
    organizationType: team.organization_type,
    cloud: team.business_cloud,
    hubEnabled: Boolean(first.integration?.enabled),
    services: first,
    grantSubscription: team.benefit.grant_subscription,
  };
}
