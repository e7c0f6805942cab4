import type { Queryable } from '@latchkey/runtime';

interface SsoConfigRow {
  config_uuid: string;
  config_name: string;
  idp_type: string;
  metadata_xml: string | null;
}

/** What sign-in needs to know of a team's SSO (migration 0005); managing connectors is not here. */
export const ssoRepository = {
  async activeConfigs(q: Queryable, teamId: string): Promise<SsoConfigRow[]> {
    return q.query<SsoConfigRow>(
      `select id as config_uuid, config_name, idp_type, metadata_xml from sso_configs
       where team_id = $1 and active order by created_at`,
      [teamId],
    );
  },

  /**
   * True when the team enforces SSO and has not excluded this admin (spec §6). Break-glass: a super
   * admin is never held to it while no super admin with a password is excluded (one was removed, or
   * lost the role, after enforcement went on), so the team cannot be locked out.
   */
  async enforcedFor(q: Queryable, teamId: string, userId: string): Promise<boolean> {
    const [row] = await q.query<{ enforced: boolean }>(
      `select p.enforce_sso and not ($2::uuid = any(p.excluded_admins))
         and not ('super_admin' = any(coalesce((select ta.scopes from team_admins ta where ta.team_id = p.team_id and ta.user_id = $2), '{}'))
              and not exists (select 1 from team_admins ta join users u on u.id = ta.user_id
                               where ta.team_id = p.team_id and 'super_admin' = any(ta.scopes)
                                 and u.password_hash is not null and u.id = any(p.excluded_admins))) as enforced
       from sso_policies p
       where p.team_id = $1 and exists (select 1 from sso_configs c where c.team_id = p.team_id and c.active)`,
      [teamId, userId],
    );
    return row?.enforced ?? false;
  },
};
