// Writes docs/events.md, the activity reference, from the activity catalogue
// (packages/contracts/src/event-catalogue) and the console's English messages, and the English
// labels the server and the Hub write (event-catalogue/english-labels.ts) from the same messages:
//   npm run gen:events-doc
// packages/contracts/src/event-catalogue/catalogue.test.ts fails while either file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { englishLabelsSource } from '../packages/contracts/src/event-catalogue/english-labels-source.ts';
import { eventsDocSource } from '../packages/contracts/src/event-catalogue/events-doc.ts';

const en = JSON.parse(readFileSync(new URL('../apps/web/src/locales/en.json', import.meta.url), 'utf8'));
const target = fileURLToPath(new URL('../docs/events.md', import.meta.url));
writeFileSync(target, eventsDocSource(en));
console.info(`wrote ${target}`);
const labels = fileURLToPath(new URL('../packages/contracts/src/event-catalogue/english-labels.ts', import.meta.url));
writeFileSync(labels, englishLabelsSource(en));
console.info(`wrote ${labels}`);
