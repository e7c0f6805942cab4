import { authApi } from './api.ts';

/**
 * Starts SSO with the team's first connector: the server answers with the identity provider's
 * address and the browser goes there (spec §7 SSO start). Errors are the caller's to show.
 */
export async function startSso(login: {
  email: string;
  team_slug: string;
  sso_configurations: { config_uuid: string }[];
}): Promise<void> {
  const config = login.sso_configurations[0];
  if (!config) throw new Error('no SSO connector');
  const { redirect_url } = await authApi.ssoStart({
    email: login.email,
    team_slug: login.team_slug,
    config_uuid: config.config_uuid,
  });
  window.location.assign(redirect_url);
}
