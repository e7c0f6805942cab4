import { configDefaults, defineConfig } from 'vitest/config';

const onPostgres = process.env.TEST_DB === 'postgres';
/** Two instances of a program need one database server to share: embedded PGlite is one process's own. */
const POSTGRES_ONLY_SERVER_TESTS = ['apps/server/src/test/two-instances-*.test.ts'];

/**
 * One runner for every unit and API test. `TEST_DB=postgres` reruns the server and hub suites
 * against the PostgreSQL server at TEST_DATABASE_URL (see scripts/test.mjs).
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'] } },
      { test: { name: 'runtime', include: ['packages/runtime/src/**/*.test.ts'], testTimeout: 30_000 } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: onPostgres ? configDefaults.exclude : [...configDefaults.exclude, ...POSTGRES_ONLY_SERVER_TESTS],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'hub', include: ['apps/hub/src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } },
      { test: { name: 'boundaries', include: ['scripts/boundaries.test.ts', 'scripts/lint-migrations.test.ts'] } },
      // `npm start` and the end-to-end suite's own servers, run as real processes.
      { test: { name: 'tooling', include: ['scripts/start/**/*.test.ts', 'e2e/support/**/*.test.ts'], testTimeout: 60_000 } },
      // The deployment files (deploy/) against their schemas.
      { test: { name: 'deploy', include: ['scripts/container/manifests.test.ts'] } },
      // The image built and run with podman, on PostgreSQL only (scripts/test.mjs's PostgreSQL pass).
      ...(onPostgres
        ? [
            {
              test: {
                name: 'containers',
                include: ['scripts/container/containers.test.ts'],
                testTimeout: 300_000,
                hookTimeout: 1_200_000,
              },
            },
          ]
        : []),
      { test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'happy-dom' } },
    ],
  },
});
