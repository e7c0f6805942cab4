// The Hub operator's command line: `npm run hub-cli -- setup-key --team <slug> [--minutes N]`.
// It reads the Hub's configuration (the same environment and DATA_DIR as the Hub), so it mints
// with the setup secret the running Hub checks against, without touching its database.
import { backupCommands, CliError, migrate, openDb, runCli } from '@latchkey/runtime';
import { loadConfig } from './config.ts';
import { MIGRATIONS_DIR } from './db/migrations-dir.ts';
import { createEventsService } from './features/eventlogs/index.ts';
import { mintSetupKey, SETUP_KEY_DEFAULT_MINUTES } from './features/registrations/setup-keys.ts';
import { hubKeySources, loadHubKeys } from './platform/keys.ts';

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
    'verify-events': {
      summary:
        "re-computes a team's event hash chain (all of it, or --from/--to sequence numbers) and says where it breaks; exit code 1 when it does",
      usage: '--team <team-slug> [--from N] [--to N]',
      options: { team: { required: true }, from: {}, to: {} },
      async run(values) {
        const num = (v: string | undefined, name: string) => {
          if (v === undefined) return undefined;
          const n = Number(v);
          if (!Number.isInteger(n) || n < 1) throw new CliError(`--${name} must be a whole number from 1.`, 2);
          return n;
        };
        const config = loadConfig();
        // The embedded database is one process's: stop the Hub first, or point HUB_DATABASE_URL at PostgreSQL.
        const db = await openDb({ url: config.HUB_DATABASE_URL, dataDir: config.DATA_DIR });
        try {
          await migrate(db, MIGRATIONS_DIR);
          const result = await createEventsService(db, { selfHosted: !config.EVENT_LOGS_MANAGED }).verify(values.team as string, {
            from_seq: num(values.from, 'from'),
            to_seq: num(values.to, 'to'),
          });
          console.info(JSON.stringify(result, null, 2));
          if (!result.ok) throw new CliError(`The chain breaks at seq ${result.problem?.seq} (${result.problem?.kind}).`, 1);
        } finally {
          await db.close();
        }
      },
    },
    // The Hub's own database and keys, where its configuration points (the server has its own backup).
    ...backupCommands(() => {
      const config = loadConfig();
      return {
        program: 'hub',
        url: config.HUB_DATABASE_URL,
        dataDir: config.DATA_DIR,
        keys: {
          ...hubKeySources(config),
          'hub-signing-ed25519.pem': { value: config.HUB_SIGNING_KEY, file: config.HUB_SIGNING_KEY_FILE },
          'hub-setup-secret': { value: config.HUB_SETUP_SECRET, file: config.HUB_SETUP_SECRET_FILE },
        },
      };
    }),
  },
  process.argv.slice(2),
);
