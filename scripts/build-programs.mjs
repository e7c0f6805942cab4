// Bundles the server and the Hub into one ES module each (apps/*/dist/main.mjs), and each one's
// operator command line (apps/*/dist/cli.mjs, what the container image runs), with their SQL
// migrations beside them: Node then starts them without compiling TypeScript (start-up time).
// Workspace packages are bundled in; npm dependencies stay external, except OpenTelemetry's: npm
// nests the runtime's 3.x under packages/runtime (lighthouse holds 2.x at the top), where a program
// in apps/*/dist would not find them.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const dependencies = (dir) => Object.keys(JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).dependencies ?? {});

for (const app of ['server', 'hub']) {
  const dir = join(root, 'apps', app);
  const external = [
    ...dependencies(`apps/${app}`),
    ...dependencies('packages/runtime'),
    ...dependencies('packages/contracts'),
  ].filter((name) => !name.startsWith('@latchkey/') && !name.startsWith('@opentelemetry/'));
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  for (const program of ['main', 'cli'])
    await build({
      entryPoints: [join(dir, `src/${program}.ts`)],
      outfile: join(dir, `dist/${program}.mjs`),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      external,
      logLevel: 'warning',
    });
  cpSync(join(dir, 'src/db/migrations'), join(dir, 'dist/migrations'), { recursive: true });
}
