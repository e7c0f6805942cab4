import { createHash } from 'node:crypto';

/** The UUID a queue and an idempotency key always give (the job's id: pg-boss keeps ids unique per queue). */
export function jobIdFor(queue: string, key: string): string {
  const h = createHash('sha256').update(`${queue}\0${key}`).digest('hex');
  // Version 8 (custom) and the RFC 4122 variant, so PostgreSQL's uuid type takes it.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}
