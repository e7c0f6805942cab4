import type { Db, Queryable } from '@latchkey/runtime';

/**
 * A Db whose first transaction also closes an approval request: `close` runs first in it (locking
 * the request), so the action's writes and the request's closing commit together or not at all,
 * and of two runs of one request the second waits for the first and then finds it closed. The
 * service's statements outside a transaction, and its work after its transaction (telling the
 * Hubs), run as without approvals.
 */
export function closingDb(db: Db, close: (tx: Queryable) => Promise<void>): { db: Db; closed: () => boolean } {
  let closed = false;
  const wrapped: Db = {
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    execAll: (sql) => db.execAll(sql),
    transaction: (fn) =>
      db.transaction(async (tx) => {
        const closing = !closed;
        if (closing) {
          await close(tx);
          closed = true;
        }
        try {
          return await fn(tx);
        } catch (error) {
          if (closing) closed = false;
          throw error;
        }
      }),
    onCommitted: (listener) => db.onCommitted(listener),
    watchChanges: (channel, pattern, listener) => db.watchChanges(channel, pattern, listener),
    close: () => Promise.resolve(),
  };
  return { db: wrapped, closed: () => closed };
}

/** Thrown inside the action's transaction when the request was closed meanwhile: nothing of it lands. */
export class RequestNoLongerOpen extends Error {
  constructor() {
    super('The approval request is no longer open.');
  }
}
