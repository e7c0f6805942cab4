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
