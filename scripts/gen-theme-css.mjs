// Writes apps/web/src/theme.css, the style sheets MantineProvider would otherwise compute at every
// start, from the console's theme (apps/web/src/lib/theme.ts):
//   npm run gen:theme-css
// apps/web/src/lib/theme-css.test.ts fails while the file is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { themeCss } from '../apps/web/src/lib/theme-css.ts';

const target = fileURLToPath(new URL('../apps/web/src/theme.css', import.meta.url));
writeFileSync(target, themeCss());
console.info(`wrote ${target}`);
