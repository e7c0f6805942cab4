import type { Db } from '@latchkey/runtime';

interface RequestLine {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  error: string | null;
}

const FLUSH_MS = 200;
const MAX_BATCH = 500;

/**
 * The per-connector request log, written in batches: one insert for every request of the last
 * {@link FLUSH_MS} ms (or {@link MAX_BATCH} lines) instead of a statement per request, and each
 * connector's last request time moved once per batch. Lines still queued when the process dies
 * are lost (at most FLUSH_MS of log); reads of the log flush first.
 */
export function createRequestLog(db: Db, onError: (error: unknown) => void = () => {}) {
  let queue: (RequestLine & { connectorId: string; at: Date })[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  const write = async (lines: typeof queue) => {
    if (lines.length === 0) return;
    await db.query(
      `with logged as (
         insert into scim_requests (connector_id, at, method, path, status, duration_ms, error)
         select * from unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[])
       )
       update scim_connectors set last_request_at = l.at
       from (select id, max(at) as at from unnest($1::uuid[], $2::timestamptz[]) as u (id, at) group by id) l
       where scim_connectors.id = l.id and (last_request_at is null or last_request_at < l.at)`,
      [
        lines.map((l) => l.connectorId),
        lines.map((l) => l.at.toISOString()),
        lines.map((l) => l.method),
        lines.map((l) => l.path),
        lines.map((l) => l.status),
        lines.map((l) => l.durationMs),
        lines.map((l) => l.error),
      ],
    );
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    const lines = queue;
    queue = [];
    writing = writing.then(() => write(lines)).catch(onError);
    return writing;
  };

  return {
    add(connectorId: string, line: RequestLine): void {
      queue.push({ ...line, connectorId, at: new Date() });
      if (queue.length >= MAX_BATCH) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), FLUSH_MS);
        timer.unref();
      }
    },
    flush,
  };
}
