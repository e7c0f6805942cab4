import { ENGLISH_ACTIVITY_LABELS, EXPORT_COLUMNS, type ExportFormat } from '@latchkey/contracts';
import { canonicalTimeSql } from './event-time.ts';

/**
 * The export's lines, made by the database (a million events in 10 s at most). Each batch
 * comes back as one text value instead of a million rows of 15 columns for Node to parse and
 * format again; the same SQL runs on PostgreSQL and on embedded PGlite.
 */

/** ISO 8601 UTC with milliseconds, as the chain hashes it. */
const iso = canonicalTimeSql;

/** Each export column as the text the canonical form uses (see chain.ts). */
const FIELDS: Record<(typeof EXPORT_COLUMNS)[number], string> = {
  seq: 'seq',
  id: 'id::text',
  occurred_at: iso('occurred_at'),
  recorded_at: iso('recorded_at'),
  actor: 'actor',
  actor_type: 'actor_type',
  activity: 'activity',
  activity_label: 'coalesce(catalogue.activity_label, activity)',
  component: 'component',
  target: 'target',
  ip: 'ip',
  device: 'device',
  outcome: 'outcome',
  detail: 'detail',
  prev_hash: 'prev_hash',
  hash: 'hash',
};

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break; a cell a spreadsheet
 * would run as a formula (=, +, -, @) is quoted and starts with an apostrophe.
 */
function csvCell(text: string): string {
  const quoted = (v: string) => `'"' || replace(${v}, '"', '""') || '"'`;
  const special = [`'"'`, `','`, 'chr(10)', 'chr(13)'].map((c) => `strpos(${text}, ${c}) > 0`).join(' or ');
  return `case when left(${text}, 1) in ('=', '+', '-', '@') then ${quoted(`'''' || ${text}`)} when ${special} then ${quoted(text)} else ${text} end`;
}

/** The text cells that can hold what CSV must quote (the rest are numbers, uuids, times and hashes). */
const FREE_TEXT = new Set(['actor', 'activity', 'activity_label', 'component', 'target', 'ip', 'device', 'detail']);

/** The catalogue's English labels as a table to join (a hash join: one lookup per event, not a long CASE). */
const CATALOGUE = `(values ${Object.entries(ENGLISH_ACTIVITY_LABELS)
  .map(([code, label]) => `('${code}', '${label.replaceAll("'", "''")}')`)
  .join(', ')}) as catalogue(code, activity_label)`;

/**
 * One batch of the export, a seq range oldest first: its lines as one text (no final newline), its
 * last seq and its row count. `where` filters `event_log`; `from` and `to` are its parameters.
 */
export function exportBatchSql(format: ExportFormat, where: string, from: string, to: string): string {
  const batch = (select: string) =>
    `(select ${select} from event_log left join ${CATALOGUE} on catalogue.code = event_log.activity where ${where} and seq between ${from} and ${to} order by seq) r`;
  const totals = `max(r.seq) as last, count(*) as n`;
  if (format === 'ndjson') {
    // row_to_json over named fields writes compact JSON with the columns in the export's order.
    const fields = EXPORT_COLUMNS.map((c) => (FIELDS[c] === c ? c : `${FIELDS[c]} as ${c}`)).join(', ');
    return `select string_agg(row_to_json(r)::text, E'\\n' order by r.seq) as text, ${totals} from ${batch(fields)}`;
  }
  const cells = EXPORT_COLUMNS.map((c) => {
    const text = c === 'detail' ? 'detail::text' : c === 'seq' ? 'seq::text' : FIELDS[c];
    return FREE_TEXT.has(c) ? csvCell(text) : text;
  });
  return `select string_agg(r.line, E'\\n' order by r.seq) as text, ${totals} from ${batch(`seq, ${cells.join(` || ',' || `)} as line`)}`;
}
