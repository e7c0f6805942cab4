/** Badges (spec §9): text truncated at `max` characters with an ellipsis. */
export const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Keyset paging state: the cursor of each page visited, so Previous needs no OFFSET. */
export interface Paging {
  cursors: (string | null)[];
}
export const firstPage = (): Paging => ({ cursors: [null] });
export const nextPage = (p: Paging, cursor: string): Paging => ({ cursors: [...p.cursors, cursor] });
export const previousPage = (p: Paging): Paging => ({ cursors: p.cursors.length > 1 ? p.cursors.slice(0, -1) : p.cursors });
/** Back to page `n` (from 1) of those visited: its cursor is kept. */
export const visitedPage = (p: Paging, n: number): Paging => ({ cursors: p.cursors.slice(0, Math.max(1, n)) });
export const currentCursor = (p: Paging): string | null => p.cursors.at(-1) ?? null;
export const pageNumber = (p: Paging): number => p.cursors.length;

/** Emails from a CSV file: any cell that looks like an email, lower-cased, deduplicated, in order. */
export function emailsFromCsv(text: string): string[] {
  const found = text.match(/[^\s,;"'<>]+@[^\s,;"'<>]+\.[^\s,;"'<>]+/g) ?? [];
  return [...new Set(found.map((e) => e.toLowerCase()))];
}
