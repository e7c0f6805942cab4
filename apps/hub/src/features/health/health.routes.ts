import { type Endpoint, hubHealthEndpoint } from '@latchkey/contracts';
import { type Db, openApiDocument, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { HubGuard } from '../../http/guard.ts';
import { readiness } from './health.service.ts';

/** Liveness, readiness, the console's version probe and the API description. */
export function healthRoutes(app: FastifyInstance, guard: HubGuard, db: Db, version: string, endpoints: readonly Endpoint[]) {
  registerEndpoint(app, hubHealthEndpoint, guard, async () => ({ status: 'ok' as const, version }));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', () => readiness(db));
  const openapi = openApiDocument('Latchkey hub', version, endpoints);
  app.get('/openapi.json', async () => openapi);
}
