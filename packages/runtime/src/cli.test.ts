import { afterEach, describe, expect, test, vi } from 'vitest';
import { runCli } from './cli.ts';

afterEach(() => vi.restoreAllMocks());

describe('a command with one argument of its own (backup <file>)', () => {
  const seen: Record<string, string | undefined>[] = [];
  const commands = {
    backup: {
      summary: 's',
      usage: '<file> [--recipient <key>]',
      positional: 'file',
      options: { recipient: {} },
      run: (v: Record<string, string | undefined>) => void seen.push(v),
    },
    other: { summary: 's', usage: '', run: () => undefined },
  };

  test('takes it beside its options', async () => {
    expect(await runCli('p', commands, ['backup', 'a.age', '--recipient', 'age1x'])).toBe(0);
    expect(seen.at(-1)).toEqual({ file: 'a.age', recipient: 'age1x' });
  });

  test('without it, or with two, is wrong usage (exit 2) and the command does not run', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const before = seen.length;
    expect(await runCli('p', commands, ['backup'])).toBe(2);
    expect(await runCli('p', commands, ['backup', 'a.age', 'b.age'])).toBe(2);
    expect(errors.mock.calls.flat().join('\n')).toContain('give one <file>');
    // A command without one still refuses stray arguments.
    expect(await runCli('p', commands, ['other', 'x'])).toBe(2);
    expect(seen.length).toBe(before);
  });
});
