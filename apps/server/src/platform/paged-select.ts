import type { Queryable } from '@latchkey/runtime';

/**
 * A page of the rows `select ${from}` gives where `where` holds, with how many hold in all.
 * `from` is `columns from table where …` (its own parameters first), `where` an extra condition
 * on it ('true': none), `orderBy` an ORDER BY over its columns.
 */
export async function pagedSelect<T>(
  q: Queryable,
  from: string,
  where: string,
  params: unknown[],
  orderBy: string,
  offset: number,
  limit: number,
): Promise<{ rows: T[]; total: number }> {
  const n = params.length;
  if (where === 'true') {
    // No filter (an IdP's import pages through everyone): the count and an index-ordered page
    // apart, rather than a window over the whole team sorted for every page.
    const [count] = await q.query<{ n: number }>(`select count(*)::int as n from (select ${from}) r`, params);
    const rows = await q.query<T>(`select * from (select ${from}) r ${orderBy} limit $${n + 1} offset $${n + 2}`, [
      ...params,
      limit,
      offset,
    ]);
    return { rows, total: count?.n ?? 0 };
  }
  const rows = await q.query<T & { total__: number }>(
    `select *, count(*) over ()::int as total__ from (select ${from} and ${where}) r ${orderBy} limit $${n + 1} offset $${n + 2}`,
    [...params, limit, offset],
  );
  // Past the last row (or count=0) the window has no row to ride on: count alone.
  const total =
    rows[0]?.total__ ??
    (await q.query<{ n: number }>(`select count(*)::int as n from (select ${from} and ${where}) r`, params))[0]?.n ??
    0;
  for (const row of rows) delete (row as { total__?: number }).total__;
  return { rows, total };
}
