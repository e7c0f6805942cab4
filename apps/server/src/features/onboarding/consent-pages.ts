import { CONSENT_MESSAGE } from '@latchkey/contracts';
import { CONSENT_CALLBACK_PATH, CONSENT_SCRIPT_PATH } from './consent.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const frame = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:32px;color:#1a1b1e;background:#f8f9fa}
main{max-width:420px;margin:0 auto;background:#fff;border:1px solid #dee2e6;border-radius:12px;padding:24px}
a.button{display:inline-block;padding:8px 16px;border-radius:6px;text-decoration:none;margin-right:8px}
.grant{background:#228be6;color:#fff}.deny{border:1px solid #ced4da;color:#1a1b1e}</style></head>
<body><main>${body}</main></body></html>`;

/** The page the popup lands on after the cloud: its outcome as data, read by the script. */
export function consentPage(outcome: { status: 'success' | 'failed'; code?: string }): string {
  const text =
    outcome.status === 'success'
      ? 'The app was added. You can close this window.'
      : 'The app was not added. You can close this window.';
  return frame(
    'Latchkey',
    `<p id="consent" data-status="${outcome.status}" data-code="${escapeHtml(outcome.code ?? '')}">${text}</p>
<script src="${CONSENT_SCRIPT_PATH}"></script>`,
  );
}

/**
 * Posts the outcome to the console that opened the popup, only to this origin (the console is
 * served from here), then closes the popup.
 */
export const consentScript = () => `(function () {
  var el = document.getElementById('consent');
  if (!el || !window.opener) return;
  window.opener.postMessage({ type: ${JSON.stringify(CONSENT_MESSAGE)}, status: el.dataset.status, code: el.dataset.code || undefined }, window.location.origin);
  window.close();
})();
`;

/** The stand-in consent screen, shaped like a cloud's: grant or deny, then back to the callback. */
export function standInPage(state: string): string {
  const back = (extra: string) => `${CONSENT_CALLBACK_PATH}?state=${encodeURIComponent(state)}&${extra}`;
  return frame(
    'Add Latchkey to your enterprise apps',
    `<h1 style="font-size:20px">Add Latchkey to your enterprise apps</h1>
<p>Stand-in consent screen: this server plays the cloud's admin-consent page (demo and tests).</p>
<p><a class="button grant" href="${escapeHtml(back('stand_in=granted'))}">Grant</a>
<a class="button deny" href="${escapeHtml(back('error=access_denied'))}">Deny</a></p>`,
  );
}
