/**
 * The doctor's findings: each check says, in words an operator acts on, what it found. A problem
 * stops the deployment working (exit code 1, /readyz?verbose lists it); a warning deserves a look.
 */
export type Verdict = 'ok' | 'warning' | 'problem';

export interface Finding {
  check: string;
  verdict: Verdict;
  detail: string;
}

export interface Check {
  name: string;
  run(): Promise<Omit<Finding, 'check'> | Omit<Finding, 'check'>[]>;
}

const CHECK_TIMEOUT_MS = 10_000;

export const ok = (detail: string) => ({ verdict: 'ok' as const, detail });
export const warning = (detail: string) => ({ verdict: 'warning' as const, detail });
export const problem = (detail: string) => ({ verdict: 'problem' as const, detail });

/** Runs every check at once; one that throws or hangs is a problem of its own, never the doctor's crash. */
export async function runChecks(checks: Check[]): Promise<Finding[]> {
  const results = await Promise.all(
    checks.map(async (check) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
      });
      try {
        const found = await Promise.race([check.run(), timeout]);
        return (Array.isArray(found) ? found : [found]).map((f) => ({ check: check.name, ...f }));
      } catch (error) {
        return [{ check: check.name, verdict: 'problem' as const, detail: `the check failed: ${(error as Error).message}` }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return results.flat();
}

const MARK: Record<Verdict, string> = { ok: '✔', warning: '!', problem: '✘' };

/** The findings as the command line prints them, one line each, then the sum. */
export function doctorReport(findings: Finding[]): string {
  const width = Math.max(...findings.map((f) => f.check.length));
  const lines = findings.map((f) => `  ${MARK[f.verdict]} ${f.check.padEnd(width)}  ${f.detail}`);
  const problems = findings.filter((f) => f.verdict === 'problem').length;
  const warnings = findings.filter((f) => f.verdict === 'warning').length;
  const sum =
    problems + warnings === 0
      ? 'Everything checked is in order.'
      : `${[plural(problems, 'problem'), plural(warnings, 'warning')].filter(Boolean).join(', ')}.`;
  return `${lines.join('\n')}\n\n${sum}`;
}

const plural = (n: number, word: string) => (n === 0 ? '' : `${n} ${word}${n === 1 ? '' : 's'}`);
