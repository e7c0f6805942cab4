import type { PickedFilters } from './filters.ts';

/**
 * The event log's filters in the address, so a view can be bookmarked, shared and reloaded:
 * `q` (the search), `activity`, `actor`, `component`, `ip` (repeated), `from` and `to` (days),
 * and `saved` (the saved search shown). A link with `saved` alone opens that saved search.
 */
export interface LogAddress {
  search: string;
  picked: PickedFilters;
  from: string;
  to: string;
  saved: string | null;
}

const LIST_PARAMS: [keyof PickedFilters, string][] = [
  ['activities', 'activity'],
  ['actors', 'actor'],
  ['components', 'component'],
  ['ips', 'ip'],
];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readAddress(search: string): LogAddress {
  const p = new URLSearchParams(search);
  const day = (name: string) => {
    const v = p.get(name) ?? '';
    return DAY.test(v) ? v : '';
  };
  const picked = Object.fromEntries(
    LIST_PARAMS.map(([key, name]) => [key, p.getAll(name).filter(Boolean)]),
  ) as unknown as PickedFilters;
  return { search: p.get('q') ?? '', picked, from: day('from'), to: day('to'), saved: p.get('saved') || null };
}

export function writeAddress(a: LogAddress): string {
  const p = new URLSearchParams();
  if (a.saved) p.set('saved', a.saved);
  if (a.search) p.set('q', a.search);
  for (const [key, name] of LIST_PARAMS) for (const v of a.picked[key]) p.append(name, v);
  if (a.from) p.set('from', a.from);
  if (a.to) p.set('to', a.to);
  return p.toString();
}

/** Whether the address names any filter (a `saved` link alone names none: the saved search's apply). */
export const addressHasFilters = (a: LogAddress): boolean =>
  Boolean(a.search || a.from || a.to || LIST_PARAMS.some(([key]) => a.picked[key].length));

/** Epoch seconds → the admin's local day (yyyy-mm-dd), the inverse of dayToEpoch for a saved search's dates. */
export function epochToDay(epoch: number | null | undefined): string {
  if (epoch == null) return '';
  const d = new Date(epoch * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A saved search's filters (as the Hub keeps them) → what the screen shows. */
export function fromSavedFilters(f: {
  activities?: string[] | undefined;
  actors?: string[] | undefined;
  components?: string[] | undefined;
  ip_addresses?: string[] | undefined;
  dates?: { start_timestamp?: number | null | undefined; end_timestamp?: number | null | undefined } | undefined;
  search_value?: string | undefined;
}): Omit<LogAddress, 'saved'> {
  return {
    search: f.search_value ?? '',
    picked: { activities: f.activities ?? [], actors: f.actors ?? [], components: f.components ?? [], ips: f.ip_addresses ?? [] },
    from: epochToDay(f.dates?.start_timestamp),
    to: epochToDay(f.dates?.end_timestamp),
  };
}
