import { ACTIVITY_CATALOGUE, activityLabelKey } from './index.ts';

/** A string literal as Biome writes it: single quotes, double ones around a text that holds a single quote. */
const literal = (text: string) =>
  text.includes("'") && !text.includes('"') ? JSON.stringify(text) : `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/**
 * english-labels.ts: each activity's English label, read from the console's English messages
 * (`messages`, apps/web/src/locales/en.json, `activity.label.*`). Written by `npm run gen:events-doc`;
 * the catalogue's test fails while the file differs.
 */
export function englishLabelsSource(messages: Readonly<Record<string, string>>): string {
  const lines = [
    '// Generated from apps/web/src/locales/en.json (activity.label.*) by `npm run gen:events-doc`; do not edit.',
    "import type { ActivityCode } from './index.ts';",
    '',
    '/**',
    " * The English labels, for what the server and the Hub write in English (the exports' `activity_label`",
    " * column): the console's English source, copied here because the programs do not read the console's",
    " * files. Not in the console's bundle: it reads en.json.",
    ' */',
    'export const ENGLISH_ACTIVITY_LABELS: Readonly<Record<ActivityCode, string>> = {',
  ];
  for (const e of ACTIVITY_CATALOGUE) {
    const label = messages[activityLabelKey(e.code)];
    if (label === undefined) throw new Error(`en.json has no ${activityLabelKey(e.code)}`);
    lines.push(`  '${e.code}': ${literal(label)},`);
  }
  lines.push('};', '');
  return lines.join('\n');
}
