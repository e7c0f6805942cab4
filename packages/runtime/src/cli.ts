import { parseArgs } from 'node:util';

/** A refusal the operator can act on: printed as it is, without a stack, exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface CliCommand {
  /** One line for `help`. */
  summary: string;
  /** The options after the command name, e.g. `--team <slug> [--out <file>]`. */
  usage: string;
  /** Options by name: a value (`--team x`), or a `flag` (`--force`, then "true"); `required` ones must be given. */
  options?: Record<string, { required?: boolean; flag?: boolean }>;
  /** The name of the one required argument that comes without an option, e.g. `backup <file>`. */
  positional?: string;
  run(values: Record<string, string | undefined>): Promise<void> | void;
}

/**
 * The operator command lines (server `latchkey`, `hub-cli`): one parser and one way to print help
 * and failures. Returns the exit code: 0 done, 1 refused or failed, 2 wrong usage.
 */
export async function runCli(program: string, commands: Record<string, CliCommand>, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const help = () =>
    [
      `usage: ${program} <command> [options]`,
      '',
      ...Object.entries(commands).map(([n, c]) => `  ${`${n} ${c.usage}`.trim()}\n      ${c.summary}`),
      `  help\n      this text`,
    ].join('\n');
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.info(help());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    console.error(`${program}: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  let values: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries(
      Object.entries(command.options ?? {}).map(([o, spec]) => [
        o,
        { type: spec.flag ? ('boolean' as const) : ('string' as const) },
      ]),
    );
    const parsed = parseArgs({ args: rest, options, allowPositionals: Boolean(command.positional), strict: true });
    values = Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, v === true ? 'true' : String(v)]));
    if (command.positional) {
      if (parsed.positionals.length !== 1) throw new Error(`give one <${command.positional}>`);
      values[command.positional] = parsed.positionals[0];
    }
  } catch (error) {
    console.error(`${program} ${name}: ${(error as Error).message}\nusage: ${program} ${name} ${command.usage}`);
    return 2;
  }
  const missing = Object.entries(command.options ?? {}).filter(([o, spec]) => spec.required && !values[o]);
  if (missing.length) {
    console.error(
      `${program} ${name}: missing ${missing.map(([o]) => `--${o}`).join(', ')}\nusage: ${program} ${name} ${command.usage}`,
    );
    return 2;
  }
  try {
    await command.run(values);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`${program} ${name}: ${error.message}`);
      return error.exitCode;
    }
    console.error(`${program} ${name} failed:`, error);
    return 1;
  }
}
