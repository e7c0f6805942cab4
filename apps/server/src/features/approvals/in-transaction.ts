import type { Db, Queryable } from '@latchkey/runtime';

/**
 * A Db whose every statement runs in `tx`: an approved action's service code runs unchanged in
 * the transaction that closes its request. The service's own transactions become savepoints, so
 * they still land whole or not at all, and the request's closing commits with them.
 */
export function inTransaction(db: Db, tx: Queryable): Db {
  let savepoints = 0;
  return {
    kind: db.kind,
    query: (sql, params) => tx.query(sql, params),
    exec: () => Promise.reject(new Error('exec runs outside an approval')),
    async transaction(fn) {
      const name = `approval_step_${++savepoints}`;
      await tx.query(`savepoint ${name}`);
      try {
        const result = await fn(tx);
        await tx.query(`release savepoint ${name}`);
        return result;
      } catch (error) {
        await tx.query(`rollback to savepoint ${name}`);
        throw error;
      }
    },
    onCommitted: (listener) => db.onCommitted(listener),
    watchChanges: (channel, pattern, listener) => db.watchChanges(channel, pattern, listener),
    close: () => Promise.resolve(),
  };
}
