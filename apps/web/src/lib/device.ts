/** The spec's device fields (§3 Device info), as the console sends them with sign-in calls. */
interface DeviceInfo {
  browser: string;
  version: string;
  id: string;
  lang: string;
  os: string;
  os_version: string;
  time_zone: string;
  type: 'browser';
  vendor: string;
}

const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /OPR\/([\d.]+)/],
  ['Samsung Internet', /SamsungBrowser\/([\d.]+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /Version\/([\d.]+).*Safari/],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  ['iOS', /(?:iPhone|iPad|iPod).*? OS ([\d_]+)/],
  ['Android', /Android ([\d.]+)/],
  ['Windows', /Windows NT ([\d.]+)/],
  ['macOS', /Mac OS X ([\d_.]+)/],
  ['ChromeOS', /CrOS \S+ ([\d.]+)/],
  ['Linux', /Linux()/],
];

/** Browser and operating system, with their versions, read from a user-agent string. */
export function parseUserAgent(ua: string): Pick<DeviceInfo, 'browser' | 'version' | 'os' | 'os_version'> {
  const browser = BROWSERS.map(([name, re]) => [name, re.exec(ua)?.[1]] as const).find(([, v]) => v !== undefined);
  const system = SYSTEMS.map(([name, re]) => [name, re.exec(ua)?.[1]] as const).find(([, v]) => v !== undefined);
  return {
    browser: browser?.[0] ?? 'Other',
    version: (browser?.[1] ?? '').slice(0, 50),
    os: system?.[0] ?? 'Other',
    os_version: (system?.[1] ?? '').replace(/_/g, '.').slice(0, 50),
  };
}

const DEVICE_ID_KEY = 'latchkey.device_id';

/** This browser's own id: random, made once, kept in localStorage (a new one after it is cleared). */
export function deviceId(storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage): string {
  let id = storage.getItem(DEVICE_ID_KEY);
  if (!id) {
    id = crypto.randomUUID();
    storage.setItem(DEVICE_ID_KEY, id);
  }
  return id;
}

/** Every device field of the spec, for the sign-in calls' `device`. */
export function deviceInfo(): DeviceInfo {
  return {
    ...parseUserAgent(navigator.userAgent),
    id: deviceId(),
    lang: navigator.language.slice(0, 20),
    time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone.slice(0, 60),
    type: 'browser',
    vendor: (navigator.vendor || '').slice(0, 60),
  };
}
