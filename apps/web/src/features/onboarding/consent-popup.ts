import { CONSENT_MESSAGE, CONSENT_POPUP } from '@latchkey/contracts/client';

type ConsentResult = { status: 'success' } | { status: 'failed'; code: string };

/**
 * The add-to-enterprise popup (spec §4, §9): opened at once on the click (so browsers allow it),
 * 600×500, then sent to the cloud's consent address; the outcome is the popup's message, or
 * popup_closed when the closed-check (every 100 ms) finds it shut without one.
 */
export function runConsentPopup(consentUrl: () => Promise<string>, onInitiated: () => void): Promise<ConsentResult> {
  const { width, height, closedCheckMs } = CONSENT_POPUP;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  let popup: Window | null = null;
  try {
    popup = window.open('', 'latchkey-consent', `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
  } catch {
    popup = null;
  }
  if (!popup) return Promise.resolve({ status: 'failed', code: 'popup_blocked' });
  const opened = popup;

  return new Promise((resolve) => {
    let settled = false;
    let closing: ReturnType<typeof setTimeout> | undefined;
    const finish = (result: ConsentResult) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      clearTimeout(closing);
      window.removeEventListener('message', onMessage);
      resolve(result);
    };
    const onMessage = (event: MessageEvent) => {
      // Only the popup, on the console's own origin, may answer.
      if (event.origin !== window.location.origin || event.source !== opened) return;
      const data = event.data as { type?: string; status?: string; code?: string } | null;
      if (!data || data.type !== CONSENT_MESSAGE) return;
      finish(data.status === 'success' ? { status: 'success' } : { status: 'failed', code: data.code || 'process_failed' });
    };
    window.addEventListener('message', onMessage);
    const timer = setInterval(() => {
      // The popup posts its outcome just before it closes itself: give that message a moment.
      if (opened.closed && !closing) closing = setTimeout(() => finish({ status: 'failed', code: 'popup_closed' }), 300);
    }, closedCheckMs);
    consentUrl().then(
      (url) => {
        if (settled) return;
        opened.location.href = url;
        onInitiated();
      },
      () => {
        opened.close();
        finish({ status: 'failed', code: 'url_fetch_failed' });
      },
    );
  });
}
