import { type Db, randomToken } from '@latchkey/runtime';

/** A named secret kept in the database, created on first use so every Hub instance shares it. */
export async function ensureSecret(db: Db, name: string, given?: string): Promise<string> {
  if (given) return given;
  await db.query('insert into app_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [name, randomToken(48)]);
  const [row] = await db.query<{ value: string }>('select value from app_secrets where name = $1', [name]);
  if (!row) throw new Error(`secret ${name} missing`);
  return row.value;
}
