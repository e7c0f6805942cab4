import type { FastifyBaseLogger } from 'fastify';
import type { ElevationsService } from './elevations.service.ts';

/**
 * Ends the elevations whose time is up, every `intervalMs`: their scope has already fallen away
 * (the guard and the Hub compare the expiry with their clock); this records the event and pushes
 * the change to the Hubs. Each instance sweeps; rows are taken with skip locked, so once.
 */
export function startElevationSweep(elevations: ElevationsService, log: FastifyBaseLogger, intervalMs = 5_000) {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= elevations
      .expireDue()
      .catch((error: unknown) => log.warn({ err: error }, 'expired elevations not swept'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
