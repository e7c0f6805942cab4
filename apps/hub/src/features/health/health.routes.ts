import { hubHealthEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { HubGuard } from '../../http/caller.ts';
import { readiness } from './health.service.ts';

/** Liveness, readiness and the console's version probe. */
export function healthRoutes(app: FastifyInstance, router: Router, guard: HubGuard, db: Db, version: string) {
  router.handle(hubHealthEndpoint, guard, async () => ({ status: 'ok' as const, version }));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', () => readiness(db));
}
