import type { Db } from '@latchkey/runtime';
import { hashPassword } from '../../platform/passwords.ts';
import { seedApprovalsDemo } from './approvals.demo.ts';
import { seedOnboardingDemo } from './onboarding.demo.ts';
import { DEMO_PASSWORD } from './seed.ts';
import { seedSignInDemo, seedSsoDemo } from './sign-in.demo.ts';

/**
 * More Northwind admins for the account-security walk-through, so it never changes how the
 * other demo admins sign in: Tess (super admin, password) turns on an authenticator; Nadia signs
 * in with emailed codes only and has no password yet; Reese resets a forgotten password; Dana
 * loses her rights while signed in.
 */
export const SECURITY_DEMO_ADMINS = {
  tess: 'tess@northwind.example',
  nadia: 'nadia@northwind.example',
  /** Forgets her password in the reset walk-through. */
  reese: 'reese@northwind.example',
  /** A new admin with password sign-in but no password yet: set_password_first. */
  pat: 'pat@northwind.example',
  /** Adds a security key and signs in with it. */
  keiko: 'keiko@northwind.example',
  /** A super admin whose rights another super admin takes away while she is signed in. */
  dana: 'dana@northwind.example',
} as const;

export async function seedSecurityDemo(db: Db): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const [team] = await tx.query<{ id: string }>("select id from teams where slug = 'northwind'");
    if (!team) return;
    const rows: [string, string, string | null, 'password' | 'otp', string[]][] = [
      [SECURITY_DEMO_ADMINS.tess, 'Tess Ward', passwordHash, 'password', ['super_admin']],
      [SECURITY_DEMO_ADMINS.nadia, 'Nadia Petrova', null, 'otp', ['admin']],
      [SECURITY_DEMO_ADMINS.reese, 'Reese Tan', passwordHash, 'password', ['admin']],
      [SECURITY_DEMO_ADMINS.pat, 'Pat Quinn', null, 'password', ['admin']],
      [SECURITY_DEMO_ADMINS.keiko, 'Keiko Sato', passwordHash, 'password', ['admin']],
      [SECURITY_DEMO_ADMINS.dana, 'Dana Frost', passwordHash, 'password', ['super_admin']],
    ];
    for (const [email, name, hash, authType, scopes] of rows) {
      const [user] = await tx.query<{ id: string }>(
        'insert into users (email, name, password_hash, auth_type) values ($1, $2, $3, $4) on conflict (email) do nothing returning id',
        [email, name, hash, authType],
      );
      if (user)
        await tx.query('insert into team_admins (team_id, user_id, scopes) values ($1, $2, $3)', [team.id, user.id, scopes]);
    }
    await seedSignInDemo(tx);
    await seedOnboardingDemo(tx);
    await seedSsoDemo(tx);
    await seedApprovalsDemo(tx);
  });
}
