import type { Db } from '@latchkey/runtime';
import { healthRepository } from './health.repository.ts';

/** Readiness: ready once the database answers (a failure becomes the 500 the load balancer sees). */
export async function readiness(db: Db) {
  await healthRepository.ping(db);
  return { status: 'ready' };
}
