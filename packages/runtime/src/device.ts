/**
 * A short, readable device for the event log from a User-Agent: "Chrome 131 on macOS",
 * "Safari 17 on iOS", "curl 8.5". Browser and system only (no full string: it is long and
 * fingerprint-like); an empty or unknown agent gives what it can, or ''.
 */
const BROWSERS: [name: string, pattern: RegExp][] = [
  // Order matters: Edge and Opera say "Chrome", Chrome says "Safari".
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\bOPR\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Headless)?(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

export function deviceFromUserAgent(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512);
  if (!ua) return '';
  const system = SYSTEMS.find(([, p]) => p.test(ua))?.[0];
  for (const [name, pattern] of BROWSERS) {
    const version = pattern.exec(ua)?.[1];
    if (version) return system ? `${name} ${version} on ${system}` : `${name} ${version}`;
  }
  // Not a browser (a script, an app): its first product token, "curl/8.5.0" → "curl 8.5.0".
  const product = /^([A-Za-z][\w.-]{0,40})\/([\w.]{1,20})/.exec(ua);
  if (product) return system ? `${product[1]} ${product[2]} on ${system}` : `${product[1]} ${product[2]}`;
  return system ?? '';
}
