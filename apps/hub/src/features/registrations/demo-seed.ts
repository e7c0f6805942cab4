import { AUX_SERVICES } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { registrationsRepository as repo } from './registrations.repository.ts';

export interface DemoRegistration {
  teamSlug: string;
  credentialId: string;
  secret: string;
}

/**
 * Registers the demo team on an empty Hub, with the credential the demo server seeds for its
 * Hub. Returns false when any registration exists, so a real setup is never touched.
 */
export async function seedDemoRegistration(db: Db, demo: DemoRegistration): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Serialises instances starting together on one PostgreSQL server.
    await tx.query('lock table registrations in exclusive mode');
    if ((await repo.count(tx)) > 0) return false;
    await repo.insert(tx, { team_slug: demo.teamSlug, credential_id: demo.credentialId, secret: demo.secret });
    // The demo server seeds every service as switched on; this side agrees.
    const registration = await repo.findByCredential(tx, demo.credentialId);
    if (registration) await repo.setServices(tx, registration.id, AUX_SERVICES);
    return true;
  });
}
