/**
 * Where the suite's processes listen: fixed by default, so a failed run can be poked at by hand.
 * E2E_PORT_BASE moves all four (server, Hub, SMTP, mailbox HTTP) so two runs can share a machine.
 */
const base = process.env.E2E_PORT_BASE ? Number(process.env.E2E_PORT_BASE) : undefined;
export const SERVER_URL = `http://127.0.0.1:${base ?? 18080}`;
export const HUB_URL = `http://127.0.0.1:${base ? base + 1 : 18081}`;
export const MAILBOX_SMTP_PORT = base ? base + 2 : 2525;
export const MAILBOX_HTTP_PORT = base ? base + 3 : 2526;
export const MAILBOX_URL = `http://127.0.0.1:${MAILBOX_HTTP_PORT}`;
