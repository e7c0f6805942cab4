import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUX_SERVICES, type AuxService, type Scope } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { buildHub } from '../app.ts';
import { loadConfig } from '../config.ts';
import { MIGRATIONS_DIR } from '../db/migrations-dir.ts';
import { registrationsRepository } from '../features/registrations/registrations.repository.ts';

export const CONSOLE_ORIGIN = 'http://console.test:8080';
export const TEAM = 'northwind';
export const CREDENTIAL = 'cred-northwind';
export const SECRET = 'shared-secret-of-northwind-and-the-licence-server';

export interface RunningHub {
  app: FastifyInstance;
  url: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/**
 * A migrated database of its own for one test file, with the Northwind registration and, as in
 * the demo, every auxiliary service switched on (pass `services` to start from others).
 */
export async function createHubDb(options: { services?: readonly AuxService[] } = {}): Promise<Db> {
  const db = await createTestDb(MIGRATIONS_DIR);
  await registrationsRepository.insert(db, { team_slug: TEAM, credential_id: CREDENTIAL, secret: SECRET });
  const registration = await registrationsRepository.findByCredential(db, CREDENTIAL);
  if (registration) await registrationsRepository.setServices(db, registration.id, options.services ?? AUX_SERVICES);
  return db;
}

/** A Hub listening on a free port of 127.0.0.1, called with real fetch. */
export async function startHub(db: Db, env: Record<string, string> = {}, rateLimitPerMinute?: number): Promise<RunningHub> {
  // Key files go to a temporary directory, never the repository (the OS cleans it).
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ALLOWED_ORIGINS: CONSOLE_ORIGIN,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-hub-')),
    ...env,
  });
  const app = await buildHub({ config, db, ...(rateLimitPerMinute ? { rateLimitPerMinute } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('hub is not listening on a port');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    app,
    url,
    post: (path, body, headers = {}) =>
      fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
  };
}

export interface GrantOptions {
  secret?: string;
  kid?: string;
  teamSlug?: string;
  email?: string;
  scopes?: Scope[];
  /** Epoch seconds; one minute from now by default, as the licence server issues them. */
  exp?: number;
  audience?: string;
  /** A fresh one per grant unless given, as the licence server does. */
  jti?: string;
}

/** Signs an aux grant exactly as the licence server does (apps/server/src/features/auth/aux-grant.ts). */
export function signGrant(o: GrantOptions = {}): Promise<string> {
  return new SignJWT({
    email: o.email ?? 'alex@northwind.example',
    team_slug: o.teamSlug ?? TEAM,
    scopes: o.scopes ?? ['super_admin'],
  })
    .setProtectedHeader({ alg: 'HS256', kid: o.kid ?? CREDENTIAL })
    .setSubject('5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11')
    .setJti(o.jti ?? randomUUID())
    .setAudience(o.audience ?? 'latchkey-hub')
    .setIssuedAt()
    .setExpirationTime(o.exp ?? Math.floor(Date.now() / 1000) + 60)
    .sign(new TextEncoder().encode(o.secret ?? SECRET));
}
