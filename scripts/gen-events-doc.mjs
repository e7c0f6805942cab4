// Writes docs/events.md, the activity reference, from the activity catalogue
// (packages/contracts/src/event-catalogue) and the console's English messages:
//   npm run gen:events-doc
// packages/contracts/src/event-catalogue/catalogue.test.ts fails while the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eventsDocSource } from '../packages/contracts/src/event-catalogue/events-doc.ts';

const en = JSON.parse(readFileSync(new URL('../apps/web/src/locales/en.json', import.meta.url), 'utf8'));
const target = fileURLToPath(new URL('../docs/events.md', import.meta.url));
writeFileSync(target, eventsDocSource(en));
console.info(`wrote ${target}`);
