// The programs log JSON lines (pino). What `npm start` shows of them: each start-up step and other
// news once, emailed codes so they stand out; request noise stays out.
const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

function parse(line) {
  if (!line.startsWith('{')) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/** Shows a program's line; returns what it says the program is doing, if it says that. */
export function showLine(program, line, source) {
  const entry = parse(line);
  if (!entry) {
    if (line.trim()) (source === 'stderr' ? console.error : console.info)(`[${program.name}] ${line}`);
    return null;
  }
  if (entry.mail) {
    console.info(`\n✉  Mail to ${entry.mail.to} — ${entry.mail.subject}\n${entry.mail.text.replace(/^/gm, '   ')}\n`);
    return null;
  }
  if (entry.level >= 40 || (!entry.request_id && entry.level >= 30)) {
    console.info(`[${program.name}] ${entry.msg}${entry.err?.message ? `: ${entry.err.message}` : ''}`);
    return entry.request_id ? null : entry.msg;
  }
  return null;
}

/** A kept line as a person reads it: a JSON entry as its level, message and error (with the program's own stack). */
export function readable(line) {
  const entry = parse(line);
  if (!entry) return line;
  const text = `${LEVELS[entry.level] ?? entry.level} ${entry.msg ?? ''}`;
  return entry.err ? `${text}\n${entry.err.stack ?? entry.err.message}` : text;
}
