import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/**
 * `npm run lint` holds the layer rules: each case writes one deliberately bad import into a copy of
 * the tree and expects the boundary check to fail naming the rule; the real tree must pass.
 */
const root = new URL('..', import.meta.url).pathname;
let copy: string;

/** The boundary half of `npm run lint` (package.json lint:boundaries), run in `dir`. */
function lintBoundaries(dir: string, targets: string[]) {
  const depcruise = spawnSync(
    join(dir, 'node_modules/.bin/depcruise'),
    [...targets, '--config', '.dependency-cruiser.cjs', '--output-type', 'err', '--no-progress'],
    { cwd: dir, encoding: 'utf8' },
  );
  if (depcruise.status !== 0) return { ok: false, output: depcruise.stdout + depcruise.stderr };
  const script = spawnSync('node', [join(dir, 'scripts/lint-boundaries.mjs'), ...targets], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, BOUNDARIES_ROOT: dir },
  });
  return { ok: script.status === 0, output: script.stdout + script.stderr };
}

/** Writes `files` into the copy, runs the check, and takes them away again. */
function withFiles(files: Record<string, string>, targets: string[]) {
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(copy, path)), { recursive: true });
      writeFileSync(join(copy, path), text);
    }
    return lintBoundaries(copy, targets);
  } finally {
    for (const path of Object.keys(files)) unlinkSync(join(copy, path));
  }
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'latchkey-boundaries-'));
  const skip = /(^|\/)(node_modules|dist|data)(\/|$)/;
  for (const part of ['apps', 'packages', 'scripts', '.dependency-cruiser.cjs', 'package.json', 'tsconfig.base.json']) {
    cpSync(join(root, part), join(copy, part), { recursive: true, filter: (src) => !skip.test(src.slice(root.length)) });
  }
  // The installed packages, except our own workspaces, which must resolve inside the copy.
  mkdirSync(join(copy, 'node_modules/@latchkey'), { recursive: true });
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== '@latchkey') symlinkSync(join(root, 'node_modules', name), join(copy, 'node_modules', name));
  }
  for (const name of readdirSync(join(root, 'node_modules/@latchkey'))) {
    const target = readlinkSync(join(root, 'node_modules/@latchkey', name));
    symlinkSync(target, join(copy, 'node_modules/@latchkey', name));
  }
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('the boundary lint', () => {
  test('passes on the real tree', () => {
    const result = lintBoundaries(root, ['apps', 'packages', 'e2e', 'scripts']);
    expect(result.output).toContain('no feature cycles');
    expect(result.ok, result.output).toBe(true);
  }, 120_000);

  const cases: { name: string; rule: string; targets: string[]; files: Record<string, string> }[] = [
    {
      name: 'a route file importing a repository',
      rule: 'routes-not-to-repository',
      targets: ['apps/server'],
      files: {
        'apps/server/src/features/team/bad.routes.ts':
          "import { teamRepository } from './team.repository.ts';\nexport const leak = teamRepository;\n",
      },
    },
    {
      name: 'a route file running SQL itself',
      rule: 'routes-without-sql',
      targets: ['apps/hub'],
      files: {
        'apps/hub/src/features/health/bad.routes.ts':
          "import type { Db } from '@latchkey/runtime';\nexport const count = (db: Db) => db.query('select count(*) from devices');\n",
      },
    },
    {
      name: 'a repository calling a service',
      rule: 'repository-not-up',
      targets: ['apps/server'],
      files: {
        'apps/server/src/features/team/bad.repository.ts':
          "import { createTeamService } from './team.service.ts';\nexport const up = createTeamService;\n",
      },
    },
    {
      name: "a web feature reaching into another feature's internals",
      rule: 'feature-through-its-index',
      targets: ['apps/web'],
      files: {
        'apps/web/src/features/groups/Bad.tsx':
          "import { Members } from '../members/Members.tsx';\nexport const Bad = Members;\n",
      },
    },
    {
      name: 'a web feature importing from the app shell',
      rule: 'web-features-not-to-app',
      targets: ['apps/web'],
      files: {
        'apps/web/src/features/members/Bad.tsx':
          "import { CONSOLE_ROUTES } from '../../app/routes.ts';\nexport const Bad = CONSOLE_ROUTES;\n",
      },
    },
    {
      name: "a server feature reaching into another feature's repository",
      rule: 'feature-through-its-index',
      targets: ['apps/server'],
      files: {
        'apps/server/src/features/branding/bad.service.ts':
          "import { teamRepository } from '../team/team.repository.ts';\nexport const reach = teamRepository;\n",
      },
    },
    {
      name: 'two modules importing each other',
      rule: 'no-circular',
      targets: ['apps/server'],
      files: {
        'apps/server/src/platform/bad-a.ts': "import { b } from './bad-b.ts';\nexport const a = () => b;\n",
        'apps/server/src/platform/bad-b.ts': "import { a } from './bad-a.ts';\nexport const b = () => a;\n",
      },
    },
    {
      name: 'two features needing each other through their public entries',
      rule: 'no-feature-cycle',
      targets: ['apps/web'],
      files: {
        'apps/web/src/features/members/bad-cycle.ts':
          "import { useLogoQuery } from '../branding/index.ts';\nexport const logo = useLogoQuery;\n",
        'apps/web/src/features/branding/bad-cycle.ts':
          "import { memberKeys } from '../members/index.ts';\nexport const keys = memberKeys;\n",
      },
    },
    {
      name: 'platform code importing a feature',
      rule: 'platform-not-to-features',
      targets: ['apps/server'],
      files: {
        'apps/server/src/platform/bad.ts':
          "import { usersRepository } from '../features/users/index.ts';\nexport const u = usersRepository;\n",
      },
    },
    {
      name: 'the request guard importing a feature',
      rule: 'http-not-to-features',
      targets: ['apps/server'],
      files: {
        'apps/server/src/http/bad.ts':
          "import { teamRepository } from '../features/team/index.ts';\nexport const t = teamRepository;\n",
      },
    },
    {
      name: 'the console importing the server',
      rule: 'web-not-to-programs',
      targets: ['apps/web', 'apps/server'],
      files: {
        'apps/web/src/lib/bad.ts': "import { loadConfig } from '../../../server/src/config.ts';\nexport const c = loadConfig;\n",
      },
    },
    {
      name: 'the contracts importing the runtime',
      rule: 'contracts-stand-alone',
      targets: ['packages'],
      files: {
        'packages/contracts/src/bad.ts': "import { AppError } from '../../runtime/src/errors.ts';\nexport const E = AppError;\n",
      },
    },
    {
      name: 'a feature room named after no domain',
      rule: 'room-names-a-domain',
      targets: ['apps/server'],
      files: {
        'apps/server/src/features/misc/misc.service.ts': 'export const misc = 1;\n',
      },
    },
    {
      name: "a room querying another room's table",
      rule: 'table-has-one-owner',
      targets: ['apps/server'],
      files: {
        'apps/server/src/features/branding/seats.repository.ts':
          "export const seats = (q: { query(s: string): unknown }) => q.query('select count(*) from members');\n",
      },
    },
    {
      name: 'a table no room owns',
      rule: 'table-has-one-owner',
      targets: ['apps/hub'],
      files: {
        'apps/hub/src/db/migrations/9999_orphan.sql': 'create table orphans (id int);\n',
      },
    },
  ];

  for (const c of cases) {
    test(`fails on ${c.name} (${c.rule})`, () => {
      const result = withFiles(c.files, c.targets);
      expect(result.ok, result.output).toBe(false);
      expect(result.output).toContain(c.rule);
    }, 120_000);
  }
});
