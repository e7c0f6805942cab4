import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { cssVariablesResolver, theme } from './theme.ts';

/**
 * The style sheets MantineProvider writes at every start (the theme's CSS variables, with the
 * contrast fixes of `cssVariablesResolver`, and its global classes), made once by
 * `npm run gen:theme-css` into src/theme.css: a cold load no longer computes every colour's
 * variants before its first paint.
 */
export function themeCss(): string {
  const html = renderToStaticMarkup(createElement(MantineProvider, { theme, cssVariablesResolver }, null));
  const sheets = [...html.matchAll(/<style data-mantine-styles="[^"]*"[^>]*>(.*?)<\/style>/gs)].map((m) => m[1]);
  return `/* Made by npm run gen:theme-css from src/lib/theme.ts: do not edit. */\n${sheets.join('\n')}\n`;
}
