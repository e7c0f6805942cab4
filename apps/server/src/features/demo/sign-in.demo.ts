import type { Queryable } from '@latchkey/runtime';
import { hashPassword } from '../../platform/passwords.ts';
import { DEMO_PASSWORD } from './seed.ts';

/**
 * Contoso, a demo team with an SSO connector, for the sign-in routes SSO changes (spec §4): Olga
 * signs in with emailed codes and is excluded from enforcement, so she chooses between SSO and a
 * code; Pia, also excluded, has a password and sees the SSO button beside it; Enzo must use SSO. The connector has no identity provider metadata (SAML is a later
 * issue), so starting SSO answers saml_client_generation_failed.
 */
export const SIGN_IN_DEMO = {
  team: { slug: 'contoso', name: 'Contoso Ltd' },
  /** Emailed codes, SSO active, not enforced for her: /login/sso-otp-choice. */
  olga: 'olga@contoso.example',
  /** Password, SSO active, not enforced for her: the SSO button on /login/verify-password. */
  pia: 'pia@contoso.example',
  /** SSO enforced: password and codes are refused. */
  enzo: 'enzo@contoso.example',
  ssoConfigId: '7b0c1e64-5d0a-4c59-9d3e-0c5a3f1f6a11',
} as const;

/** Seeds Contoso once (a second call changes nothing); run with the security demo. */
export async function seedSignInDemo(tx: Queryable): Promise<void> {
  const [team] = await tx.query<{ id: string }>(
    `insert into teams (slug, name, team_type, organization_type, valid_till)
     values ($1, $2, 'organization', 'enterprise', '2027-06-30') on conflict (slug) do nothing returning id`,
    [SIGN_IN_DEMO.team.slug, SIGN_IN_DEMO.team.name],
  );
  if (!team) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const ids: string[] = [];
  for (const [email, name, hash, authType] of [
    [SIGN_IN_DEMO.olga, 'Olga Berg', null, 'otp'],
    [SIGN_IN_DEMO.pia, 'Pia Lund', passwordHash, 'password'],
    [SIGN_IN_DEMO.enzo, 'Enzo Ricci', passwordHash, 'password'],
  ] as const) {
    const [user] = await tx.query<{ id: string }>(
      'insert into users (email, name, password_hash, auth_type) values ($1, $2, $3, $4) returning id',
      [email, name, hash, authType],
    );
    ids.push(user?.id as string);
    await tx.query("insert into team_admins (team_id, user_id, scopes) values ($1, $2, array['super_admin'])", [
      team?.id,
      user?.id,
    ]);
  }
  await tx.query(
    `insert into sso_configs (id, team_id, config_name, idp_type, active) values ($1, $2, 'Contoso Entra ID', 'azure', true)`,
    [SIGN_IN_DEMO.ssoConfigId, team?.id],
  );
  await tx.query('insert into sso_policies (team_id, enforce_sso, excluded_admins) values ($1, true, $2)', [
    team?.id,
    ids.slice(0, 2),
  ]);
}

/**
 * Alpine Ski House, a demo team without SSO for the SSO connector walk-through: Fiona, its
 * super admin, sets up a connector against an identity provider and enforces it; Felix, an admin,
 * then signs in by SSO. Gus is an admin of Alpine Ski House too, and the super admin of a second
 * team, Alpine Rentals (no SSO), from which he switches into Alpine Ski House once it enforces SSO.
 * Kept apart from Contoso, whose seeded connector the sign-in routes use.
 */
const SSO_DEMO = {
  team: { slug: 'alpine', name: 'Alpine Ski House' },
  otherTeam: { slug: 'alpine-rentals', name: 'Alpine Rentals' },
  fiona: 'fiona@alpine.example',
  felix: 'felix@alpine.example',
  gus: 'gus@alpine.example',
} as const;

export async function seedSsoDemo(tx: Queryable): Promise<void> {
  const [team] = await tx.query<{ id: string }>(
    `insert into teams (slug, name, team_type, organization_type, valid_till)
     values ($1, $2, 'organization', 'enterprise', '2027-06-30') on conflict (slug) do nothing returning id`,
    [SSO_DEMO.team.slug, SSO_DEMO.team.name],
  );
  if (!team) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const [other] = await tx.query<{ id: string }>(
    `insert into teams (slug, name, team_type, organization_type, valid_till)
     values ($1, $2, 'organization', 'standard', '2027-06-30') returning id`,
    [SSO_DEMO.otherTeam.slug, SSO_DEMO.otherTeam.name],
  );
  for (const [email, name, scope] of [
    [SSO_DEMO.fiona, 'Fiona Walsh', 'super_admin'],
    [SSO_DEMO.felix, 'Felix Braun', 'admin'],
    [SSO_DEMO.gus, 'Gus Keller', 'admin'],
  ] as const) {
    const [user] = await tx.query<{ id: string }>(
      "insert into users (email, name, password_hash, auth_type) values ($1, $2, $3, 'password') returning id",
      [email, name, passwordHash],
    );
    await tx.query('insert into team_admins (team_id, user_id, scopes) values ($1, $2, $3)', [team.id, user?.id, [scope]]);
    if (email === SSO_DEMO.gus)
      await tx.query("insert into team_admins (team_id, user_id, scopes) values ($1, $2, array['super_admin'])", [
        other?.id,
        user?.id,
      ]);
  }
}
