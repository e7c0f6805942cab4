import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/** The settings of a graceful stop, read by the server and the Hub alike. */
export const shutdownSettings = {
  /** After SIGTERM, how long requests in flight and running jobs have to finish before the program stops anyway. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
  /**
   * After SIGTERM, how long the program keeps taking new requests while /readyz says 503, so that
   * the load balancer has taken it out of rotation before it stops listening (Kubernetes: a few seconds).
   */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(60).default(0),
};

export interface DrainOptions {
  graceSeconds: number;
  delaySeconds: number;
  /** Runs once the HTTP app (and with it its jobs) has stopped: the database, tracing. */
  cleanup: () => Promise<void>;
}

/**
 * Stops on SIGTERM or SIGINT without dropping work. /readyz answers 503 at once (createHttpApp's
 * `draining`); after the delay the listener closes (idle connections are closed, requests in flight
 * finish, new ones on open connections get 503), the app's onClose hooks stop the jobs, then
 * `cleanup`, then exit 0. Work that has not finished within the grace period is abandoned: exit 1.
 */
export function drainOnSignals(app: FastifyInstance, options: DrainOptions): void {
  const drain = async (signal: NodeJS.Signals) => {
    if (app.draining) return;
    app.draining = true;
    app.log.info({ signal, grace_seconds: options.graceSeconds }, 'stopping: readiness is off, finishing the work in flight');
    const deadline = setTimeout(
      () => {
        app.log.error('stopping: work still running when the grace period ended; stopping anyway');
        process.exit(1);
      },
      (options.delaySeconds + options.graceSeconds) * 1000,
    );
    deadline.unref();
    await new Promise((resolve) => setTimeout(resolve, options.delaySeconds * 1000));
    try {
      await app.close();
      await options.cleanup();
    } catch (error) {
      app.log.error({ err: error }, 'stopping: a step failed');
      process.exit(1);
    }
    app.log.info('stopped');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, drain);
}
