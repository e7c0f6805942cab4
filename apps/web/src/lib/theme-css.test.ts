import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { themeCss } from './theme-css.ts';

it('src/theme.css holds the style sheets the theme makes (npm run gen:theme-css after a theme change)', () => {
  const written = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../theme.css'), 'utf8');
  expect(written).toBe(themeCss());
  // The contrast fixes are in it: dimmed text is not Mantine's gray 6.
  expect(written).toMatch(/--mantine-color-dimmed: #/);
});
