import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { accessTokens } from './access-tokens.ts';

const SECRET = 's'.repeat(40);
const key = new TextEncoder().encode(SECRET);
const inAMinute = () => Date.now() + 60_000;

describe('access tokens', () => {
  it('are standard HS256 JWTs that a JOSE library verifies', async () => {
    const token = accessTokens(SECRET, 'latchkey-hub-access').sign({ sub: 'u1', sid: 's1' }, inAMinute());
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256' });
    const { payload } = await jwtVerify(token, key, { audience: 'latchkey-hub-access' });
    expect(payload).toMatchObject({ sub: 'u1', sid: 's1' });
  });

  it('accept a token a JOSE library signed the same way', async () => {
    const token = await new SignJWT({ sid: 's1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(key);
    expect(accessTokens(SECRET).verify(token)).toMatchObject({ sub: 'u1', sid: 's1' });
  });

  it('refuse a token signed with another secret, altered, expired, or for another audience', () => {
    const tokens = accessTokens(SECRET);
    const token = tokens.sign({ sub: 'u1', sid: 's1' }, inAMinute());
    expect(tokens.verify(token)).not.toBeNull();
    expect(accessTokens('x'.repeat(40)).verify(token)).toBeNull();
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', sid: 's1', exp: 9e9 })).toString('base64url');
    expect(tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    expect(tokens.verify(`${token.slice(0, -2)}AA`)).toBeNull();
    expect(tokens.verify(token, Date.now() + 61_000)).toBeNull();
    expect(accessTokens(SECRET, 'latchkey-hub-access').verify(token)).toBeNull();
    expect(tokens.verify('not-a-token')).toBeNull();
  });

  it('refuse any header but their own, so a token cannot pick "none" or another algorithm', () => {
    const tokens = accessTokens(SECRET);
    const [, payload, signature] = tokens.sign({ sub: 'u1', sid: 's1' }, inAMinute()).split('.');
    for (const alg of ['none', 'HS512', 'RS256']) {
      const header = Buffer.from(JSON.stringify({ alg })).toString('base64url');
      expect(tokens.verify(`${header}.${payload}.${signature}`)).toBeNull();
      expect(tokens.verify(`${header}.${payload}.`)).toBeNull();
    }
  });
});
