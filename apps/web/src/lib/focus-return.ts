/**
 * Focus goes back to the opener when a dialog closes (WCAG 2.4.3), for every dialog of the console.
 *
 * Most dialogs are mounted only while open (`{open && <Dialog />}`), so Mantine's own focus return,
 * which acts when `opened` turns false, never runs and the focus fell to <body>. This watches the
 * page instead: it remembers the last elements focused outside any modal dialog, and when the last
 * modal leaves the page with the focus lost, focuses the most recent one still on screen. A dialog
 * opened from a menu item (gone with its menu) gives the focus back to the menu's button. A dialog
 * that places the focus itself (the invite dialog, or a flow moving on) is left alone.
 */
const MODAL = '[aria-modal="true"]';
const MENU = '[role="menu"]';
const REMEMBERED = 8;
/** How long after the last dialog closes a lost focus is still given back. */
const SETTLE_MS = 1000;

export function installFocusReturn(doc: Document = document): () => void {
  const recent: HTMLElement[] = [];
  let modalOpen = false;
  // When the last modal left; the focus may still be lost a little later (see restore).
  let closedAt = 0;

  const onFocusIn = (event: FocusEvent) => {
    const el = event.target;
    if (!(el instanceof HTMLElement) || el.closest(MODAL)) return;
    const at = recent.indexOf(el);
    if (at >= 0) recent.splice(at, 1);
    recent.push(el);
    if (recent.length > REMEMBERED) recent.shift();
  };

  // Menu items are transient: a dialog's own focus return may land on one as its menu unmounts.
  const inMenu = (el: Element) => el.closest(MENU) !== null;
  const focusable = (el: HTMLElement) =>
    el.isConnected && !inMenu(el) && !el.closest('[inert]') && !el.hasAttribute('disabled') && el.getClientRects().length > 0;

  const restore = () => {
    if (!closedAt || doc.querySelector(MODAL)) return;
    if (performance.now() - closedAt > SETTLE_MS) {
      closedAt = 0;
      return;
    }
    const active = doc.activeElement;
    if (active && active !== doc.body && active.isConnected && !inMenu(active)) {
      closedAt = 0; // Something placed the focus: leave it there.
      return;
    }
    for (let i = recent.length - 1; i >= 0; i--) {
      const el = recent[i];
      if (el && focusable(el)) {
        el.focus();
        closedAt = 0;
        return;
      }
    }
  };

  const observer = new MutationObserver(() => {
    const open = doc.querySelector(MODAL) !== null;
    if (modalOpen && !open) closedAt = performance.now();
    modalOpen = open;
    // A frame later: a closing dialog's own focus handling, or the next screen's, goes first.
    // Checked again on every change until settled: the menu a dialog was opened from may
    // unmount after the dialog, taking the focus with it.
    if (!open && closedAt) requestAnimationFrame(restore);
  });
  doc.addEventListener('focusin', onFocusIn);
  observer.observe(doc.body, { childList: true, subtree: true });
  return () => {
    doc.removeEventListener('focusin', onFocusIn);
    observer.disconnect();
  };
}
