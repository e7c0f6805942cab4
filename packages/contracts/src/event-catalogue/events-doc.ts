import { ACTIVITY_CATALOGUE, ACTIVITY_COMPONENTS, activityDescriptionKey, activityLabelKey, componentLabelKey } from './index.ts';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
/** `{{actor}} signed in` → `{actor} signed in`: the parameters as a reader of the reference expects them. */
const params = (text: string) => text.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, '{$1}');

/**
 * docs/events.md: the activity reference, a table per component, from the catalogue and the
 * console's English messages (`messages`, apps/web/src/locales/en.json). Written by
 * `npm run gen:events-doc`; the catalogue's test fails while the file differs.
 */
export function eventsDocSource(messages: Readonly<Record<string, string>>): string {
  const lines = [
    '# Event reference',
    '',
    '<!-- Generated from packages/contracts/src/event-catalogue by `npm run gen:events-doc`; do not edit. -->',
    '',
    'Every activity the licence server, the Hub and members’ apps write to the team’s event log, by',
    'component (the event’s `component` column). The console shows the label (in the admin’s language) and,',
    'in an event’s details, the description with the event’s values and the code. Exports carry both the code',
    '(`activity`) and the English label (`activity_label`). `{actor}` and `{target}` are the event’s columns;',
    'the other parameters are keys of its `detail`. An event whose code is not listed here (written by an',
    'older or newer release) is shown by its code.',
    '',
    `${ACTIVITY_CATALOGUE.length} activities in ${Object.keys(ACTIVITY_COMPONENTS).length} components.`,
    '',
  ];
  for (const [component, spec] of Object.entries(ACTIVITY_COMPONENTS)) {
    lines.push(`## ${messages[componentLabelKey(component)] ?? component} (\`${component}\`)`, '');
    lines.push(`Written by: ${spec.sources.join(', ')}.`, '');
    lines.push('| Activity | Code | Severity | Detail fields | Description |', '| --- | --- | --- | --- | --- |');
    for (const e of ACTIVITY_CATALOGUE.filter((a) => a.component === component)) {
      const label = messages[activityLabelKey(e.code)] ?? e.code;
      const description = params(messages[activityDescriptionKey(e.code)] ?? '');
      const fields = e.fields.map((f) => `\`${f}\``).join(', ') || '–';
      lines.push(`| ${cell(label)} | \`${e.code}\` | ${e.severity} | ${fields} | ${cell(description)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
