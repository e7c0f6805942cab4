import { AppError } from './errors.ts';

/**
 * A PostgreSQL refusal that means the caller sent something the database cannot take, as the
 * caller's 400 (or 409), on PGlite and pg alike (both carry the SQLSTATE in `code`). Anything else
 * (connection lost, deadlock, syntax) stays the program's fault. The database's own message never
 * reaches the caller: it can name tables and constraints.
 */
export function databaseInputError(error: unknown): AppError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return null;
  // Class 22, data exception: invalid text representation, numeric or datetime out of range,
  // invalid byte sequence, string too long for its column…
  if (code.startsWith('22'))
    return new AppError('invalid_input', 'A value is not valid here.', 400).shows('errors.invalid_value');
  // Class 23, integrity: a row that must exist does not, a required or checked value is wrong.
  if (code === '23502' || code === '23503' || code === '23514' || code === '23P01')
    return new AppError('invalid_input', 'A value is not valid here.', 400).shows('errors.invalid_value');
  // Two callers created the same thing at once, or the thing exists already.
  if (code === '23505') return new AppError('conflict', 'This already exists.', 409).shows('errors.already_exists');
  // An index entry too large for its page: only an oversized value the contract let through.
  if (code === '54000') return new AppError('invalid_input', 'A value is too long.', 400).shows('errors.value_too_long');
  return null;
}
