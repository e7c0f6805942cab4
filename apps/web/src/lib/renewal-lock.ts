/** One lock for every tab of the console's origin: the session they share is renewed by one at a time. */
const RENEWAL_LOCK = 'latchkey.session-renewal';

/**
 * Runs `renew` holding the renewal lock (Web Locks API): a tab that waited for it finds the other
 * tab's new tokens in storage instead of spending the same refresh token again. The browser lets
 * go of the lock when the tab closes or navigates mid-renewal. Without the API (plain http on a
 * non-loopback address is not a secure context) it runs at once, and the server's grace window
 * for a just-rotated refresh token keeps two tabs renewing together signed in.
 */
export function withRenewalLock<T>(renew: () => Promise<T>): Promise<T> {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(RENEWAL_LOCK, renew) : renew();
}
