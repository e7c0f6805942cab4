import { AUX_SERVICES, Ed25519JwkSchema } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { registrationsRepository as repo } from './registrations.repository.ts';

interface DemoRegistration {
  teamSlug: string;
  credentialId: string;
  /** The demo server's public key, JWK as JSON: pinned by `npm start`, which made both keys. */
  serverKey: string;
  serverUrl: string;
}

/**
 * Registers the demo team on an empty Hub, trusting the demo server's public key. Returns false
 * when any registration exists, so a real setup is never touched.
 */
export async function seedDemoRegistration(db: Db, demo: DemoRegistration): Promise<boolean> {
  const serverKey = Ed25519JwkSchema.parse(JSON.parse(demo.serverKey));
  return db.transaction(async (tx) => {
    // Serialises instances starting together on one PostgreSQL server.
    await tx.query('lock table registrations in exclusive mode');
    if ((await repo.count(tx)) > 0) return false;
    await repo.insert(tx, {
      team_slug: demo.teamSlug,
      credential_id: demo.credentialId,
      server_key: serverKey,
      server_url: demo.serverUrl,
    });
    // The demo server seeds every service as switched on; this side agrees.
    const registration = await repo.findByCredential(tx, demo.credentialId);
    if (registration) await repo.setServices(tx, registration.id, AUX_SERVICES);
    return true;
  });
}
