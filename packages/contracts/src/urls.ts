/**
 * Spec §5: a URL must be parseable, and https is required when one is given. Plain http is
 * accepted only for a Hub on this machine (loopback) outside production, for development.
 */
export function hubUrlProblem(value: string, options: { allowLoopbackHttp: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'invalid url';
  }
  if (url.protocol === 'https:') return null;
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol === 'http:' && loopback && options.allowLoopbackHttp) return null;
  return 'https_required';
}
