// The Hub operator's command line: `npm run hub-cli -- setup-key --team <slug> [--minutes N]`.
// It reads the Hub's configuration (the same environment and DATA_DIR as the Hub), so it mints
// with the setup secret the running Hub checks against, without touching its database.
import { CliError, runCli } from '@latchkey/runtime';
import { loadConfig } from './config.ts';
import { mintSetupKey, SETUP_KEY_DEFAULT_MINUTES } from './features/registrations/setup-keys.ts';
import { loadHubKeys } from './platform/keys.ts';

process.exitCode = await runCli(
  'hub-cli',
  {
    'setup-key': {
      summary: `a single-use key that lets a Latchkey server register with this Hub for one team (default ${SETUP_KEY_DEFAULT_MINUTES} minutes)`,
      usage: '--team <team-slug> [--minutes N]',
      options: { team: { required: true }, minutes: {} },
      run(values) {
        const minutes = values.minutes ? Number(values.minutes) : SETUP_KEY_DEFAULT_MINUTES;
        if (!Number.isInteger(minutes) || minutes < 1 || minutes > 24 * 60)
          throw new CliError('--minutes must be a whole number from 1 to 1440.', 2);
        const team = values.team as string;
        const keys = loadHubKeys(loadConfig());
        console.info(mintSetupKey(keys.setupSecret, team, minutes));
        console.error(`Single use, for team "${team}" only, valid for ${minutes} minutes.`);
      },
    },
  },
  process.argv.slice(2),
);
