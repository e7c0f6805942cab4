import type { Queryable } from '@latchkey/runtime';

export const healthRepository = {
  /** The cheapest statement that proves the database answers. */
  async ping(q: Queryable): Promise<void> {
    await q.query('select 1');
  },
};
