export const PAGE_SIZE = 10;

/** Client-side pages of 10 over a fetched list. */
export const pageOf = <T>(items: readonly T[], page: number, size = PAGE_SIZE): T[] =>
  items.slice((page - 1) * size, page * size);
export const pageCount = (n: number, size = PAGE_SIZE): number => Math.max(1, Math.ceil(n / size));
