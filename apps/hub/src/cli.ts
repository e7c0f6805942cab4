// The Hub operator's command line: `npm run hub-cli -- setup-key --team <slug> [--minutes N]`.
// It reads the Hub's configuration (the same environment and DATA_DIR as the Hub), so it mints
// with the setup secret the running Hub checks against, without touching its database.
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { mintSetupKey, SETUP_KEY_DEFAULT_MINUTES } from './features/registrations/setup-keys.ts';
import { loadHubKeys } from './platform/keys.ts';

const usage = 'usage: hub-cli setup-key --team <team-slug> [--minutes N]   (default 30 minutes)';
const [command, ...rest] = process.argv.slice(2);
if (command !== 'setup-key') {
  console.error(usage);
  process.exit(2);
}
const { values } = parseArgs({ args: rest, options: { team: { type: 'string' }, minutes: { type: 'string' } } });
const minutes = values.minutes ? Number(values.minutes) : SETUP_KEY_DEFAULT_MINUTES;
if (!values.team || !Number.isInteger(minutes) || minutes < 1 || minutes > 24 * 60) {
  console.error(usage);
  process.exit(2);
}
const keys = loadHubKeys(loadConfig());
console.info(mintSetupKey(keys.setupSecret, values.team, minutes));
console.error(`Single use, for team "${values.team}" only, valid for ${minutes} minutes.`);
