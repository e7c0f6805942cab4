import { Device } from '@latchkey/contracts';
import { describe, expect, test } from 'vitest';
import { deviceId, deviceInfo, parseUserAgent } from './device.ts';

describe('device fields of the sign-in calls (spec §3 Device info)', () => {
  test.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
      { browser: 'Chrome', version: '142.0.0.0', os: 'Windows', os_version: '10.0' },
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      { browser: 'Safari', version: '18.1', os: 'macOS', os_version: '10.15.7' },
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      { browser: 'Safari', version: '18.1', os: 'iOS', os_version: '18.1' },
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      { browser: 'Firefox', version: '133.0', os: 'Linux', os_version: '' },
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0',
      { browser: 'Edge', version: '142.0.0.0', os: 'Windows', os_version: '10.0' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36',
      { browser: 'Chrome', version: '142.0.0.0', os: 'Android', os_version: '15' },
    ],
  ])('%s', (ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });

  test('the device id is made once and kept', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const first = deviceId(storage);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(deviceId(storage)).toBe(first);
  });

  test('every field the spec lists is sent, and the contract accepts them', () => {
    const info = deviceInfo();
    expect(Object.keys(info).sort()).toEqual(
      ['browser', 'id', 'lang', 'os', 'os_version', 'time_zone', 'type', 'vendor', 'version'].sort(),
    );
    expect(Device.parse(info)).toEqual(info);
  });
});
