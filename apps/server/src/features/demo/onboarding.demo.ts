import type { Queryable } from '@latchkey/runtime';
import { hashPassword } from '../../platform/passwords.ts';
import { DEMO_PASSWORD } from './seed.ts';

/**
 * Teams that have just bought the product, so their super admin meets the onboarding wizard
 * (spec §4): Fabrikam and Litware keep files in a business cloud (Google Drive, OneDrive: the
 * add-to-enterprise-apps step), Tailspin in none. Each has an admin too (no wizard for them).
 */
export const ONBOARDING_DEMO = {
  fabrikam: {
    slug: 'fabrikam',
    name: 'Fabrikam Studios',
    cloud: 'google_drive',
    superAdmin: 'fay@fabrikam.example',
    admin: 'finn@fabrikam.example',
  },
  litware: {
    slug: 'litware',
    name: 'Litware Inc',
    cloud: 'one_drive',
    superAdmin: 'lia@litware.example',
    admin: 'leo@litware.example',
  },
  tailspin: {
    slug: 'tailspin',
    name: 'Tailspin Toys',
    cloud: 'none',
    superAdmin: 'tia@tailspin.example',
    admin: 'tom@tailspin.example',
  },
} as const;

const NEW_WIZARD = { show_wizard: true, enable_console: false, resume_notification: false, state: { stage: 'welcome' } };

/** Seeds the onboarding teams once (a second call changes nothing). */
export async function seedOnboardingDemo(tx: Queryable): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const t of Object.values(ONBOARDING_DEMO)) {
    const [team] = await tx.query<{ id: string }>(
      `insert into teams (slug, name, team_type, organization_type, business_cloud, valid_till, onboarding_wizard)
       values ($1, $2, 'organization', 'standard', $3, '2027-06-30', $4) on conflict (slug) do nothing returning id`,
      [t.slug, t.name, t.cloud, JSON.stringify(NEW_WIZARD)],
    );
    if (!team) continue;
    for (const [email, name, scopes] of [
      [t.superAdmin, `${t.name.split(' ')[0]} Owner`, ['super_admin']],
      [t.admin, `${t.name.split(' ')[0]} Admin`, ['admin']],
    ] as const) {
      const [user] = await tx.query<{ id: string }>(
        'insert into users (email, name, password_hash) values ($1, $2, $3) on conflict (email) do nothing returning id',
        [email, name, passwordHash],
      );
      if (user)
        await tx.query('insert into team_admins (team_id, user_id, scopes) values ($1, $2, $3)', [team.id, user.id, scopes]);
    }
    await tx.query(
      `insert into members (team_id, email, name, usage) values ($1, $2, 'Member One', 'active'), ($1, $3, 'Member Two', 'unresponsive')`,
      [team.id, `one@${t.slug}.example`, `two@${t.slug}.example`],
    );
  }
}
