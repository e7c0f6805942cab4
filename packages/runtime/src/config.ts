import { z } from 'zod';

/** Parses the environment with a schema; a bad value stops start-up with a clear message. */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return result.data;
}

/** Environment strings that mean yes. */
export const envFlag = z
  .string()
  .optional()
  .transform((v) => v === '1' || v === 'true');

/**
 * TRUST_PROXY: whose word X-Forwarded-For is. Unset (or `false`, `0`): nobody's, a client is the
 * connection's address. `true` or a number N: N proxies stand in front of this instance, each
 * appending the address it saw; the client is the address the outermost one appended, and whatever
 * a client wrote there itself (further left) is ignored: believing the leftmost entry would let a
 * client pass for a new one on every request, past rate limits and per-client counters. Else a
 * comma-separated list of the proxies' addresses or CIDR ranges: hops from those are trusted.
 */
export const trustProxySetting = z
  .string()
  .optional()
  .transform((v): boolean | number | string => {
    const value = v?.trim() ?? '';
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true') return 1;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  });
