import * as crypto from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { accessTokens } from './access-tokens.ts';

// The signature checks a token costs, counted.
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof import('node:crypto')>();
  return { ...actual, createHmac: vi.fn(actual.createHmac) };
});

it('check a token once, and its expiry on every call', () => {
  const tokens = accessTokens('s'.repeat(40));
  const token = tokens.sign({ sub: 'u1', sid: 's1' }, Date.now() + 60_000);
  const signed = vi.mocked(crypto.createHmac).mock.calls.length;
  for (let i = 0; i < 5; i++) expect(tokens.verify(token)).toMatchObject({ sub: 'u1', sid: 's1' });
  expect(vi.mocked(crypto.createHmac).mock.calls.length).toBe(signed + 1);
  // A remembered payload cannot be changed by a caller.
  const payload = tokens.verify(token);
  expect(() => Object.assign(payload ?? {}, { sub: 'admin' })).toThrow();
  expect(tokens.verify(token, Date.now() + 61_000)).toBeNull();
  // Another token (altered by one character) is checked, and refused.
  expect(tokens.verify(`${token.slice(0, -2)}AA`)).toBeNull();
  expect(vi.mocked(crypto.createHmac).mock.calls.length).toBe(signed + 2);
});
