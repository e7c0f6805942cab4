import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('config', () => {
  it('defaults to the embedded database, port 8081 and version 2.2.0', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ HOST: '127.0.0.1', PORT: 8081, DATA_DIR: './data/hub', HUB_VERSION: '2.2.0' });
    expect(c).toMatchObject({ ACCESS_TOKEN_TTL_SECONDS: 300, REFRESH_TTL_MINUTES: 60, SEED_DEMO: false });
    expect(c.HUB_DATABASE_URL).toBeUndefined();
  });

  it('reads a comma-separated list of console origins', () => {
    const c = loadConfig({ ALLOWED_ORIGINS: ' https://console.example.com, http://localhost:5173 ,' });
    expect(c.ALLOWED_ORIGINS).toEqual(['https://console.example.com', 'http://localhost:5173']);
  });

  it('trusts the local console by default, but no origin in production unless told', () => {
    expect(loadConfig({}).ALLOWED_ORIGINS).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080']);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/ALLOWED_ORIGINS/);
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com:587' };
    expect(loadConfig({ ...production, ALLOWED_ORIGINS: 'https://console.example.com' }).ALLOWED_ORIGINS).toEqual([
      'https://console.example.com',
    ]);
  });

  it('writes mail to the log outside production only: production needs SMTP_URL', () => {
    expect(loadConfig({}).SMTP_URL).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'production', ALLOWED_ORIGINS: 'https://console.example.com' })).toThrow(/SMTP_URL/);
    const c = loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Hub <hub@example.com>' });
    expect(c).toMatchObject({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Hub <hub@example.com>' });
  });

  it('refuses an origin with a path, which a browser never sends', () => {
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'https://console.example.com/' })).toThrow(/ALLOWED_ORIGINS/);
  });

  it("refuses to seed the demo without the demo server's public key and address", () => {
    expect(() => loadConfig({ SEED_DEMO: '1' })).toThrow(/DEMO_SERVER_KEY/);
    const c = loadConfig({ SEED_DEMO: 'true', DEMO_SERVER_KEY: '{}', DEMO_SERVER_URL: 'http://127.0.0.1:8080' });
    expect(c).toMatchObject({ SEED_DEMO: true, DEMO_TEAM_SLUG: 'northwind', DEMO_CREDENTIAL_ID: 'demo-hub' });
  });

  it('refuses a version that is not dotted numbers', () => {
    expect(() => loadConfig({ HUB_VERSION: 'v2' })).toThrow(/HUB_VERSION/);
  });
});
