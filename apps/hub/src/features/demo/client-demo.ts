import { type Db, hashToken, randomToken } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { devicesRepository } from '../devices/index.ts';
import { recoveryRepository } from '../recovery/index.ts';

interface DemoTeam {
  teamSlug: string;
}

// Members of the demo server's Northwind team (apps/server/src/features/demo/seed.ts).
const FIRST = ['Ava', 'Ben', 'Chloe', 'Dev', 'Elif', 'Farah', 'Gus', 'Hana', 'Ines', 'Jon', 'Kai', 'Lena', 'Mateo', 'Nia'];
const LAST = ['andersen', 'brooks'];
const MEMBERS = LAST.flatMap((last) => FIRST.map((first) => `${first.toLowerCase()}.${last}@northwind.example`)).slice(0, 26);
/** The demo's recovery agent, made a recovery admin here. */
const RECOVERY_ADMIN = 'rory@northwind.example';

/**
 * Fills a freshly registered demo team with what its members' apps would have sent, through
 * the ingestion API itself (in-process HTTP), so the audit, sharing and recovery screens show
 * real data: devices, vault health, share links, recovery requests and one recovery admin.
 */
export async function seedClientDemo(app: FastifyInstance, db: Db, team: DemoTeam): Promise<void> {
  const call = async (url: string, payload: unknown, bearer: string) => {
    const res = await app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${bearer}` },
    });
    if (res.statusCode !== 200) throw new Error(`demo seed: ${url} answered ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, string>;
  };
  // Enrolment grants are the licence server's to sign and the Hub holds no key that could make
  // one, so the demo enrols its devices directly (what devices.routes.ts does once a grant checks).
  const register = async (email: string, n: number) => {
    const secret = randomToken();
    const id = await devicesRepository.insert(db, {
      team_slug: team.teamSlug,
      email,
      name: n % 3 === 0 ? 'MacBook Pro' : n % 3 === 1 ? 'Pixel 8' : 'ThinkPad X1',
      os: n % 3 === 0 ? 'macOS' : n % 3 === 1 ? 'Android' : 'Windows',
      app_version: '5.4.1',
      public_key: Buffer.from(`demo-public-key-${email}`).toString('base64'),
      secret_hash: hashToken(secret),
    });
    return `${id}.${secret}`;
  };

  for (const [n, email] of MEMBERS.entries()) {
    const device = await register(email, n);
    const total = 40 + ((n * 37) % 260);
    const weak = (n * 7) % 19;
    const reused = (n * 5) % 13;
    const old = (n * 11) % 31;
    const compromised = n % 6 === 0 ? (n % 4) + 1 : 0;
    const score = Math.max(5, Math.min(100, 100 - Math.round(((weak + reused + old) * 90) / total) - compromised * 8));
    await call('/api/v1/client/vault/summary/', { total_items: total, weak, reused, old, compromised, score }, device);
    if (n % 3 === 0) {
      await call(
        '/api/v1/client/shares/create/',
        {
          label: ['Wi-Fi guest', 'Staging database', 'Vendor portal', 'Door code'][n % 4],
          expires_in_hours: 24 + n,
          view_limit: 3 + (n % 5),
        },
        device,
      );
    }
    if (n === 4 || n === 17) await call('/api/v1/client/recovery/requests/create/', {}, device);
  }
  // The super admin's nomination is a console call; the seed records it directly, then the
  // nominated member approves it from their device like any app would.
  const agentDevice = await register(RECOVERY_ADMIN, 0);
  const nomination = await recoveryRepository.addAdminRequest(db, {
    teamSlug: team.teamSlug,
    email: RECOVERY_ADMIN,
    teamuserId: RECOVERY_ADMIN,
    by: 'alex@northwind.example',
  });
  if (nomination) await call('/api/v1/client/recovery/admin/requests/accept/', { request_id: nomination.id }, agentDevice);
}
