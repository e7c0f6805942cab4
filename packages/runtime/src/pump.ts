import type { JobLog } from './job-types.ts';

export interface PumpOptions {
  /** How often the pump looks on its own, between kicks. */
  intervalMs: number;
  log: JobLog;
  /** Logged (with the error) when one pass throws; the next tick tries again. */
  failed: string;
  /**
   * A kick while a pass runs: `again` runs one more pass right after it (what changed meanwhile may
   * have been missed by the pass); `join` only waits for the running pass.
   */
  whilePumping: 'again' | 'join';
}

/**
 * The loop that queues leased runs on the job queue: one pass at a time, on a timer and whenever
 * `kick` says something changed. What a pass queues (and the lease each run takes) is the caller's.
 */
export function createPump(pass: () => Promise<void>, o: PumpOptions) {
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | null = null;
  let again = false;
  const tick = (): Promise<void> => {
    if (pumping) {
      if (o.whilePumping === 'again') again = true;
      return pumping;
    }
    pumping = pass()
      .catch((error: unknown) => o.log.warn({ err: error }, o.failed))
      .finally(() => {
        pumping = null;
        if (again) {
          again = false;
          void tick();
        }
      });
    return pumping;
  };

  return {
    start() {
      timer = setInterval(() => void tick(), o.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await pumping;
    },
    /** Something changed: look now rather than at the next tick. */
    kick: () => void tick(),
  };
}
