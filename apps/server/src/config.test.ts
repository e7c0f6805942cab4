import { describe, expect, test } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration', () => {
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
