import { describe, expect, test } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration', () => {
  test('TRUST_PROXY counts proxy hops (a client is what the outermost proxy saw), or names the proxies; off by default', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    // `true` is one proxy, never "believe the leftmost address", which a client writes itself.
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' }).TRUST_PROXY).toBe('10.0.0.0/8, 192.0.2.1');
  });

  test('defaults to the embedded database and log mail in development', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe('./data/server');
    expect(config.SMTP_URL).toBeUndefined();
  });

  test('production needs real mail: codes and reset links never go to the log', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SMTP_URL/);
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example:587' }).SMTP_URL).toBe('smtp://mail.example:587');
  });

  test('a demo Hub on plain http must be on this machine, and never in production', () => {
    expect(loadConfig({ DEMO_HUB_URL: 'http://127.0.0.1:8081' }).DEMO_HUB_URL).toBe('http://127.0.0.1:8081');
    expect(() => loadConfig({ DEMO_HUB_URL: 'http://hub.example.com' })).toThrow(/https_required/);
    expect(() => loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://m:25', DEMO_HUB_URL: 'http://127.0.0.1:8081' })).toThrow(
      /https_required/,
    );
  });

  test('a bad value stops start-up with the variable named', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
