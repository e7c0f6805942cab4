// Writes packages/contracts/src/routes.ts, the console's zod-free route table, from the endpoint
// declarations (packages/contracts/src/endpoints.ts). Run after adding or changing a call:
//   npm run gen:routes
// packages/contracts/src/routes.test.ts fails while the table and the declarations differ.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { routeTableSource } from '../packages/contracts/src/route-table.ts';

const target = fileURLToPath(new URL('../packages/contracts/src/routes.ts', import.meta.url));
writeFileSync(target, routeTableSource());
execFileSync('npx', ['biome', 'format', '--write', target], { stdio: 'inherit' });
console.info(`wrote ${target}`);
