import { isIP } from 'node:net';

/**
 * A strict reader of one QRadar event line, written from IBM's "LEEF event components",
 * "Predefined LEEF event attributes", "Custom event keys", "Best practices guidelines for LEEF
 * events" and "Custom event date format" (Java SimpleDateFormat), with the RFC 5424 syslog header
 * LEEF allows in front. Throws a LeefError saying what is wrong; answers the parts.
 */
export class LeefError extends Error {}

interface ParsedLeef {
  syslog: { pri: number; timestamp: string; hostname: string; appName: string; procId: string; msgId: string } | null;
  version: string;
  vendor: string;
  product: string;
  productVersion: string;
  eventId: string;
  delimiter: string;
  attributes: Record<string, string>;
}

const fail = (why: string): never => {
  throw new LeefError(why);
};

/** RFC 5424 as the LEEF document narrows it: PRI required, the timestamp as yyyy-MM-ddTHH:mm:ss.SSSZ (or ±hh:mm). */
const SYSLOG = /^<(\d{1,3})>1 (\S+) (\S+) (\S+) (\S+) (\S+) (-|(?:\[[^\]]*\])+) /;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/;
const PRINTUSASCII = /^[\x21-\x7e]+$/;
const KEY = /^[A-Za-z0-9]+$/;

type KeyType = 'ip' | 'int' | 'port' | 'sev' | 'mac' | 'bool' | 'string255' | 'string' | 'date';
/** The predefined keys and their types (IBM's table); a custom key may not take one of these names. */
const PREDEFINED: Record<string, KeyType> = {
  cat: 'string',
  devTime: 'date',
  devTimeFormat: 'string',
  proto: 'string',
  sev: 'sev',
  src: 'ip',
  dst: 'ip',
  srcPort: 'port',
  dstPort: 'port',
  srcPreNAT: 'ip',
  dstPreNAT: 'ip',
  srcPostNAT: 'ip',
  dstPostNAT: 'ip',
  usrName: 'string255',
  srcMAC: 'mac',
  dstMAC: 'mac',
  srcPreNATPort: 'port',
  dstPreNATPort: 'port',
  srcPostNATPort: 'port',
  dstPostNATPort: 'port',
  identSrc: 'ip',
  identHostName: 'string255',
  identNetBios: 'string255',
  identGrpName: 'string255',
  identMAC: 'mac',
  vSrc: 'ip',
  vSrcName: 'string255',
  accountName: 'string255',
  srcBytes: 'int',
  dstBytes: 'int',
  srcPackets: 'int',
  dstPackets: 'int',
  totalPackets: 'int',
  role: 'string',
  realm: 'string',
  policy: 'string',
  resource: 'string',
  url: 'string',
  groupID: 'string',
  domain: 'string',
  isLoginEvent: 'bool',
  isLogoutEvent: 'bool',
  identSecondlp: 'ip',
  calLanguage: 'string',
  calCountryOrRegion: 'string',
};

const MAC = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;
const DIGITS = /^\d+$/;

function typeHolds(value: string, type: KeyType): boolean {
  switch (type) {
    case 'ip':
      return isIP(value) !== 0;
    case 'int':
      return DIGITS.test(value);
    case 'port':
      return DIGITS.test(value) && value.length <= 5 && Number(value) <= 65535;
    case 'sev':
      return DIGITS.test(value) && Number(value) >= 1 && Number(value) <= 10;
    case 'mac':
      return MAC.test(value);
    case 'bool':
      return value === 'true' || value === 'false';
    case 'string255':
      return value.length <= 255;
    default:
      return true;
  }
}

function checkType(key: string, value: string, type: KeyType) {
  if (!typeHolds(value, type)) fail(`${key}=${value} is not a valid ${type}`);
}

const patterns = new Map<string, RegExp>();
/** The Java SimpleDateFormat letters QRadar's devTimeFormat takes, as patterns for their values (each format made once). */
function dateFormatPattern(format: string): RegExp {
  let pattern = patterns.get(format);
  if (!pattern) {
    pattern = compileDateFormat(format);
    patterns.set(format, pattern);
  }
  return pattern;
}

function compileDateFormat(format: string): RegExp {
  let re = '';
  for (let i = 0; i < format.length; ) {
    const c = format[i] as string;
    if (c === "'") {
      const end = format.indexOf("'", i + 1);
      if (end < 0) fail(`devTimeFormat ${format} has an unclosed quote`);
      re += end === i + 1 ? "'" : format.slice(i + 1, end).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i = end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) {
      re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i++;
      continue;
    }
    let n = 1;
    while (format[i + n] === c) n++;
    const part = {
      y: n === 2 ? '\\d{2}' : '\\d{4}',
      M: n >= 3 ? '[A-Za-z]{3,9}' : '(?:0[1-9]|1[0-2])',
      d: '(?:0[1-9]|[12]\\d|3[01])',
      H: '(?:[01]\\d|2[0-3])',
      h: '(?:0[1-9]|1[0-2])',
      m: '[0-5]\\d',
      s: '[0-5]\\d',
      S: `\\d{${n}}`,
      a: '(?:AM|PM)',
      z: '[A-Z]{3,4}',
      Z: '[+-]\\d{4}',
      X: '(?:Z|[+-]\\d{2}(?::?\\d{2})?)',
      E: '[A-Za-z]{3,9}',
    }[c];
    if (!part) fail(`devTimeFormat ${format} uses the letter ${c}, which SimpleDateFormat does not define`);
    re += part;
    i += n;
  }
  return new RegExp(`^${re}$`);
}

function delimiterOf(field: string): string {
  if (field.length === 1) return field;
  const hex = /^(?:0x|x)([0-9A-Fa-f]{1,4})$/.exec(field);
  if (!hex) return fail(`"${field}" is not a delimiter: one character, or x / 0x and 1-4 hexadecimal digits`);
  return String.fromCharCode(Number.parseInt(hex[1] as string, 16));
}

export function parseLeef(line: string): ParsedLeef {
  if (/[\r\n]/.test(line)) fail('an event is one line');
  let rest = line;
  let syslog: ParsedLeef['syslog'] = null;
  if (line.startsWith('<')) {
    const m = SYSLOG.exec(line) ?? fail('the syslog header is not RFC 5424');
    const [whole, pri, timestamp, hostname, appName, procId, msgId] = m as unknown as string[];
    if (Number(pri) > 191) fail(`PRI ${pri} is over 191`);
    if (!TIMESTAMP.test(timestamp as string) || Number.isNaN(Date.parse(timestamp as string)))
      fail(`the syslog timestamp ${timestamp} is not yyyy-MM-ddTHH:mm:ss.SSSZ`);
    for (const [name, v, max] of [
      ['HOSTNAME', hostname, 255],
      ['APP-NAME', appName, 48],
      ['PROCID', procId, 128],
      ['MSGID', msgId, 32],
    ] as const)
      if (!PRINTUSASCII.test(v as string) || (v as string).length > max)
        fail(`the syslog ${name} "${v}" is not 1-${max} printable characters`);
    syslog = {
      pri: Number(pri),
      timestamp: timestamp as string,
      hostname: hostname as string,
      appName: appName as string,
      procId: procId as string,
      msgId: msgId as string,
    };
    rest = line.slice((whole as string).length);
  }
  if (!rest.startsWith('LEEF:2.0|')) fail('the LEEF header does not start with LEEF:2.0|');
  const fields: string[] = [];
  let at = 'LEEF:2.0|'.length;
  for (let f = 0; f < 5; f++) {
    const bar = rest.indexOf('|', at);
    if (bar < 0) fail('the LEEF 2.0 header has fewer than 6 fields (Vendor|Product|Version|EventID|DelimiterCharacter|)');
    fields.push(rest.slice(at, bar));
    at = bar + 1;
  }
  const [vendor, product, productVersion, eventId, delimiterField] = fields as [string, string, string, string, string];
  for (const [name, v] of [
    ['Vendor', vendor],
    ['Product', product],
    ['Version', productVersion],
    ['EventID', eventId],
  ] as const)
    if (!v) fail(`the LEEF header's ${name} is empty`);
  if (eventId.length > 255) fail('the EventID is over 255 characters');
  const delimiter = delimiterOf(delimiterField);
  const attributes: Record<string, string> = {};
  const payload = rest.slice(at);
  for (const pair of payload.split(delimiter)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) fail(`"${pair}" is not key=value`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!KEY.test(key)) fail(`the key "${key}" is not a single word`);
    if (value === '') fail(`${key} has no value`);
    if (key in attributes) fail(`${key} appears twice`);
    const type = PREDEFINED[key];
    if (type) checkType(key, value, type);
    attributes[key] = value;
  }
  const devTime = attributes.devTime;
  if (devTime !== undefined) {
    const format = attributes.devTimeFormat;
    if (format === undefined) {
      if (!/^(\d{10}|\d{13})$/.test(devTime)) fail('devTime that is not epoch needs devTimeFormat');
    } else if (!dateFormatPattern(format).test(devTime)) fail(`devTime ${devTime} does not match devTimeFormat ${format}`);
  } else if (attributes.devTimeFormat !== undefined) fail('devTimeFormat without devTime');
  return { syslog, version: '2.0', vendor, product, productVersion, eventId, delimiter, attributes };
}
