import { isIP } from 'node:net';
import type { EventRecord } from '@latchkey/contracts';

/**
 * One event as IBM QRadar takes it: LEEF 2.0 (IBM, "LEEF event components" and "Predefined LEEF
 * event attributes") behind an RFC 5424 syslog header, the same line over syslog and over the
 * HTTP Receiver.
 *
 * LEEF defines no escaping, so a value must never hold the attribute delimiter: the delimiter is
 * the tab (declared `x09`) and a tab or line break inside a value becomes a space. A key without a
 * value is left out (an empty `src=` is no IP address, and a strict receiver refuses the frame);
 * predefined keys carry their types (`src` an IP address, `usrName` at most 255 characters).
 * `eventId` comes early: a collector that cuts a long event still keeps the key it de-duplicates on.
 */
type LeefEvent = EventRecord & { team_slug: string };

const LEEF_DELIMITER = '\t';
/** QRadar's default largest event (Max Payload Length); a longer detail is cut to fit. */
const MAX_EVENT_BYTES = 8192;
const DEV_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSX";
/** PRI 110 = facility 13 (log audit) × 8 + severity 6 (informational). */
const PRI = 110;

const BREAKS = /[\t\r\n]/;
const clean = (v: string) => (BREAKS.test(v) ? v.replace(/[\t\r\n]/g, ' ') : v);
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** yyyy-MM-ddTHH:mm:ss.SSSZ, as the syslog header and devTimeFormat say (what the Hub stores, usually already). */
const isoMs = (t: string) => (ISO_MS.test(t) ? t : new Date(t).toISOString());
/** RFC 5424 header fields are printable US-ASCII without spaces, each with a maximum length. */
const headerField = (v: string, max: number) => v.replace(/[^\x21-\x7e]/g, '_').slice(0, max) || '-';

/** The longest start of `s` of at most `max` bytes in UTF-8, cut between characters. */
function cutToBytes(s: string, max: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    bytes += Buffer.byteLength(ch);
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

export function leefLine(e: LeefEvent, logSource: string): string {
  const detail = Object.keys(e.detail).length ? clean(JSON.stringify(e.detail)) : '';
  const attrs: [string, string | number][] = [
    ['devTime', isoMs(e.occurred_at)],
    ['devTimeFormat', DEV_TIME_FORMAT],
    ['eventId', e.id],
    ['seq', e.seq],
    ['cat', e.component],
    ['usrName', e.actor.slice(0, 255)],
    ['accountType', e.actor_type],
    ['src', isIP(e.ip) ? e.ip : ''],
    ['resource', e.target],
    ['outcome', e.outcome],
    ['deviceId', e.device],
    ['team', e.team_slug],
    ['hash', e.hash],
    ['prevHash', e.prev_hash],
  ];
  const header = `<${PRI}>1 ${isoMs(e.recorded_at)} ${headerField(logSource, 255)} latchkey - ${headerField(e.activity, 32)} -`;
  const leef = `LEEF:2.0|Latchkey|Hub|1.0|${e.activity}|x09|`;
  let body = '';
  for (const [k, v] of attrs) {
    const value = clean(String(v));
    if (value !== '') body += `${body ? LEEF_DELIMITER : ''}${k}=${value}`;
  }
  const line = `${header} ${leef}${body}`;
  if (!detail) return line;
  // The detail last, cut so the whole event stays within the collector's largest event.
  const room = MAX_EVENT_BYTES - Buffer.byteLength(line) - Buffer.byteLength(`${LEEF_DELIMITER}detail=`);
  const fitted = Buffer.byteLength(detail) <= room ? detail : `${cutToBytes(detail, room - 3)}...`;
  return `${line}${LEEF_DELIMITER}detail=${fitted}`;
}
