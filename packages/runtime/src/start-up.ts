import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';

/**
 * What a program does between its start and its first request, logged as each step begins. A first
 * start on a small machine takes about a minute (creating the embedded database, every migration,
 * the demo seed); whoever waits for it (an operator, `npm start`) reads which step it is at. The
 * HTTP app's own logger does not exist yet at these steps, hence a logger of the same level.
 */
export interface StartUp {
  step(message: string): void;
  /** Creating the embedded database (a first start, the slow part) reads differently from opening it. */
  databaseStep(options: { url?: string | undefined; dataDir: string }): void;
  /** Waits until SLOW_START_MS has passed since the process started, when that is set (never in production). */
  holdBack(): Promise<void>;
}

export function startUp(options: { logLevel: string; nodeEnv: string; env: NodeJS.ProcessEnv }): StartUp {
  // Written at once, so these lines and the app's own come out in the order they happened.
  const log = pino({ level: options.logLevel }, pino.destination({ dest: 1, sync: true }));
  const step = (message: string) => log.info({ start_up: true }, message);
  // Stands in for a slow machine's first start, so that what waits for the program can be tested.
  const slowStartMs = options.nodeEnv === 'production' ? 0 : Number(options.env.SLOW_START_MS ?? 0) || 0;
  const startedAt = Date.now() - process.uptime() * 1000;
  return {
    step,
    databaseStep({ url, dataDir }) {
      if (url) step('connecting to the database');
      else if (existsSync(join(dataDir, 'PG_VERSION'))) step(`opening the embedded database in ${dataDir}`);
      else step(`creating the embedded database in ${dataDir} (first start)`);
    },
    async holdBack() {
      const left = startedAt + slowStartMs - Date.now();
      if (left <= 0) return;
      step(`waiting ${Math.ceil(left / 1000)} s more (SLOW_START_MS, a development setting)`);
      await new Promise((resolve) => setTimeout(resolve, left));
    },
  };
}
