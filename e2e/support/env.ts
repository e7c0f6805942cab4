/** Where the suite's processes listen (fixed, so a failed run can be poked at by hand). */
export const SERVER_URL = 'http://127.0.0.1:18080';
export const HUB_URL = 'http://127.0.0.1:18081';
export const MAILBOX_SMTP_PORT = 2525;
export const MAILBOX_HTTP_PORT = 2526;
export const MAILBOX_URL = `http://127.0.0.1:${MAILBOX_HTTP_PORT}`;
