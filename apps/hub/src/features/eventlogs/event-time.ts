import { eventTimeInBounds } from '@latchkey/contracts';
import { AppError } from '@latchkey/runtime';

/**
 * An event's times as the chain hashes them: ISO 8601 UTC with milliseconds. Appends make the text
 * from the input (`canonicalTime`); every read makes it from the stored value in the database
 * (`canonicalTimeSql`), never through the driver's date parsing (PGlite read year 0099 as 1999).
 * Inside the bounds the two are the same text, so what is hashed is what is read back.
 */
export const canonicalTimeSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The canonical text of an event's time, or a 400 naming the event when it is outside the bounds. */
export function canonicalTime(input: string, index: number, now = Date.now()): string {
  if (!eventTimeInBounds(input, now))
    throw new AppError('invalid_input', 'An event time is outside 2000-01-01 … one day from now.', 400, [
      { path: `events.${index}.occurred_at`, message: 'errors.event_time_out_of_range' },
    ]).shows('errors.event_time_out_of_range');
  return new Date(input).toISOString();
}
