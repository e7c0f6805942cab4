import { createPublicKey, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AUX_SERVICES,
  type AuxService,
  hubAdminRoleEndpoint,
  hubAdminsCheckEndpoint,
  hubApprovalCheckEndpoint,
  hubSessionCheckEndpoint,
  type OrganizationType,
  type Scope,
  type TeamType,
} from '@latchkey/contracts';
import { bearerOf, checkCallClaims, type Db, JWS_TYP, publicJwkOf, signCall, signJws, verifyJws } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import type { FastifyInstance } from 'fastify';
import { buildHub } from '../app.ts';
import { loadConfig } from '../config.ts';
import { MIGRATIONS_DIR } from '../db/migrations-dir.ts';
import { registrationsRepository } from '../features/registrations/registrations.repository.ts';

export const CONSOLE_ORIGIN = 'http://console.test:8080';
export const TEAM = 'northwind';
export const CREDENTIAL = 'cred-northwind';

const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
/** The licence server's signing key, as the tests play the server. */
export const SERVER_KEY = generateKeyPairSync('ed25519').privateKey;
export const SERVER_JWK = publicJwkOf(SERVER_KEY);
/** The test Hubs' own key and setup secret (so a test can check their signatures and mint setup keys). */
export const HUB_KEY = generateKeyPairSync('ed25519').privateKey;
export const HUB_SETUP_SECRET = 'test-hub-setup-secret-0123456789abcdef';

/**
 * The licence server's session-check answer, as the tests play the server: every console
 * session is live unless `ended`, with its grant's scopes unless `scopes` says otherwise, and
 * `down` makes it unreachable. It checks the Hub's signature with the real runtime code.
 * Its role answer (`/hub/admin/role/`): every email holds recovery_agent unless `roles` says otherwise.
 * Its admins check (`/hub/admins/check/`): every address is an administrator unless in `notAdmins`.
 * The team's plan it states is an enterprise organisation unless `plans` says otherwise for the sid.
 */
export const consoleSessions = {
  ended: new Set<string>(),
  scopes: new Map<string, Scope[]>(),
  plans: new Map<string, { team_type: TeamType; organization_type: OrganizationType }>(),
  roles: new Map<string, Scope[]>(),
  notAdmins: new Set<string>(),
  down: false,
  checks: 0,
};
let standIn: Promise<string> | undefined;
const standInNonces = new Set<string>();
function serverStandIn(): Promise<string> {
  standIn ??= new Promise((resolve) => {
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        consoleSessions.checks++;
        const body = JSON.parse(raw || '{}') as { team_slug: string; sid: string; email: string; emails?: string[] };
        const path = [hubAdminRoleEndpoint.path, hubApprovalCheckEndpoint.path, hubAdminsCheckEndpoint.path].includes(
          req.url ?? '',
        )
          ? (req.url as string)
          : hubSessionCheckEndpoint.path;
        const token = bearerOf(req.headers.authorization);
        const claims = token ? verifyJws(token, JWS_TYP.call, HUB_KEY_PUBLIC) : null;
        const check = claims ? checkCallClaims(claims, { path, teamSlug: body.team_slug, body }) : null;
        const ok = !consoleSessions.down && check?.ok === true && !standInNonces.has(check.jti);
        if (check?.ok) standInNonces.add(check.jti);
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            ok && path === hubAdminRoleEndpoint.path
              ? { scopes: consoleSessions.roles.get(body.email) ?? ['recovery_agent'] }
              : ok && path === hubAdminsCheckEndpoint.path
                ? { admins: (body.emails ?? []).filter((e) => !consoleSessions.notAdmins.has(e)) }
                : ok && path === hubApprovalCheckEndpoint.path
                  ? // No approval policy stands in here: every gated call runs (the real server's check: approvals-hub tests).
                    { decision: 'run' }
                  : ok
                    ? {
                        live: !consoleSessions.ended.has(body.sid),
                        scopes: consoleSessions.scopes.get(body.sid) ?? ['super_admin'],
                        absolute_expires_at: null,
                        ...(consoleSessions.plans.get(body.sid) ?? {
                          team_type: 'organization',
                          organization_type: 'enterprise',
                        }),
                      }
                    : {},
          ),
        );
      });
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`));
  });
  return standIn;
}
const HUB_KEY_PUBLIC = createPublicKey(HUB_KEY);

export interface RunningHub {
  app: FastifyInstance;
  url: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/**
 * A migrated database of its own for one test file, with the Northwind registration (trusting
 * SERVER_KEY) and, as in the demo, every auxiliary service switched on (pass `services` to start
 * from others).
 */
export async function createHubDb(options: { services?: readonly AuxService[] } = {}): Promise<Db> {
  const db = await createTestDb(MIGRATIONS_DIR);
  await registerTeam(db, TEAM, CREDENTIAL, await serverStandIn(), options.services);
  return db;
}

/** Registers `team` on the Hub, trusting SERVER_KEY under `credential`, with `services` switched on (tests and benches). */
export async function registerTeam(
  db: Db,
  team: string,
  credential: string,
  serverUrl: string,
  services: readonly AuxService[] = AUX_SERVICES,
): Promise<void> {
  await registrationsRepository.insert(db, {
    team_slug: team,
    credential_id: credential,
    server_key: SERVER_JWK,
    server_url: serverUrl,
  });
  const registration = await registrationsRepository.findByCredential(db, credential);
  if (registration) await registrationsRepository.setServices(db, registration.id, services);
}

/** A Hub listening on a free port of 127.0.0.1, called with real fetch; its keys live in a temporary directory. */
export async function startHub(db: Db, env: Record<string, string> = {}, rateLimitPerMinute?: number): Promise<RunningHub> {
  // Key files go to a temporary directory, never the repository (the OS cleans it).
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ALLOWED_ORIGINS: CONSOLE_ORIGIN,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-hub-')),
    HUB_SIGNING_KEY: pem(HUB_KEY),
    HUB_SETUP_SECRET,
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

/** A server→Hub call signed as the licence server signs it (features/integration/hub-client.ts there). */
export function postSigned(
  hub: RunningHub,
  path: string,
  body: Record<string, unknown> & { team_slug: string },
  o: { key?: KeyObject; kid?: string } = {},
): Promise<Response> {
  const { token, json } = signCall(o.key ?? SERVER_KEY, o.kid ?? CREDENTIAL, path, body.team_slug, body);
  return fetch(hub.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: json,
  });
}

interface GrantOptions {
  key?: KeyObject;
  kid?: string;
  teamSlug?: string;
  email?: string;
  scopes?: Scope[];
  /** Epoch seconds; one minute from now by default, as the licence server issues them. */
  exp?: number;
  audience?: string;
  /** A fresh one per grant unless given, as the licence server does. */
  jti?: string;
  /** The console session; a fresh id unless given. */
  sid?: string;
  /** Epoch seconds: the console session's absolute expiry; twelve hours from now unless given. */
  sessionExp?: number;
  /** The team's plan; an enterprise organisation unless given, left out of the grant when null (an older server). */
  teamType?: TeamType | null;
  /** When each time-bound scope falls away (epoch ms): just-in-time elevations; none unless given. */
  scopeExpiry?: Partial<Record<Scope, number>>;
  organizationType?: OrganizationType | null;
}

/** Signs an aux grant exactly as the licence server does (apps/server/src/features/auth/aux-grant.ts). */
export function signGrant(o: GrantOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return Promise.resolve(
    signJws(o.key ?? SERVER_KEY, JWS_TYP.grant, o.kid ?? CREDENTIAL, {
      aud: o.audience ?? 'latchkey-hub',
      sub: '5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11',
      jti: o.jti ?? randomUUID(),
      iat: now,
      exp: o.exp ?? now + 60,
      email: o.email ?? 'alex@northwind.example',
      team_slug: o.teamSlug ?? TEAM,
      scopes: o.scopes ?? ['super_admin'],
      sid: o.sid ?? randomUUID(),
      session_exp: o.sessionExp ?? now + 12 * 3600,
      ...(o.teamType === null ? {} : { team_type: o.teamType ?? 'organization' }),
      ...(o.organizationType === null ? {} : { organization_type: o.organizationType ?? 'enterprise' }),
      ...(o.scopeExpiry ? { scope_expiry: o.scopeExpiry } : {}),
    }),
  );
}
