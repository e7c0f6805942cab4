/**
 * Fetches the signed-in console's code ahead of time, for a fast first signed-in page. The sign-in steps
 * call `preloadConsole()` while the admin types a code, so that when the code is accepted the
 * frame and the landing screen are already in the browser. The app registers what to fetch
 * (router.tsx): the sign-in steps do not import the console itself.
 */
let preloader: (() => void) | null = null;
let done = false;

export function setConsolePreloader(load: () => void): void {
  preloader = load;
}

/** Starts fetching the console's frame and landing screen, once; harmless to call again. */
export function preloadConsole(): void {
  if (done || !preloader) return;
  done = true;
  preloader();
}
