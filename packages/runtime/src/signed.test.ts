import { createHmac, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCallClaims, JWS_TYP, jwsKid, publicJwkOf, publicKeyOf, sameJwk, signCall, signJws, verifyJws } from './signed.ts';

const key = generateKeyPairSync('ed25519').privateKey;
const pub = publicKeyOf(publicJwkOf(key));
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('Ed25519 JWS', () => {
  it('verifies what the key signed, with its own type only', () => {
    const token = signJws(key, JWS_TYP.grant, 'cred-1', { a: 1 });
    expect(pub).not.toBeNull();
    if (!pub) return;
    expect(jwsKid(token, JWS_TYP.grant)).toBe('cred-1');
    expect(verifyJws(token, JWS_TYP.grant, pub)).toEqual({ a: 1 });
    // A grant is not a call, and the reverse.
    expect(verifyJws(token, JWS_TYP.call, pub)).toBeNull();
  });

  it('refuses another key, a changed payload, alg none, HMAC and any other header shape', () => {
    if (!pub) throw new Error('no key');
    const token = signJws(key, JWS_TYP.grant, 'cred-1', { scopes: ['integrator'] });
    const other = publicKeyOf(publicJwkOf(generateKeyPairSync('ed25519').privateKey));
    expect(other && verifyJws(token, JWS_TYP.grant, other)).toBeNull();
    const [h, , s] = token.split('.');
    expect(verifyJws(`${h}.${b64({ scopes: ['super_admin'] })}.${s}`, JWS_TYP.grant, pub)).toBeNull();
    const none = `${b64({ alg: 'none', typ: JWS_TYP.grant, kid: 'cred-1' })}.${b64({ a: 1 })}.`;
    expect(verifyJws(none, JWS_TYP.grant, pub)).toBeNull();
    const hsInput = `${b64({ alg: 'HS256', typ: JWS_TYP.grant, kid: 'cred-1' })}.${b64({ a: 1 })}`;
    const hs = `${hsInput}.${createHmac('sha256', 'secret').update(hsInput).digest('base64url')}`;
    expect(verifyJws(hs, JWS_TYP.grant, pub)).toBeNull();
    // An embedded key (jwk) or any extra header is not our shape, even when the signature holds.
    const withJwkInput = `${b64({ alg: 'EdDSA', typ: JWS_TYP.grant, kid: 'cred-1', jwk: publicJwkOf(key) })}.${b64({ a: 1 })}`;
    expect(jwsKid(`${withJwkInput}.x`, JWS_TYP.grant)).toBeNull();
    expect(verifyJws('garbage', JWS_TYP.grant, pub)).toBeNull();
  });

  it('reads only Ed25519 public JWKs', () => {
    expect(publicKeyOf({ kty: 'RSA', n: 'x', e: 'AQAB' })).toBeNull();
    expect(publicKeyOf(null)).toBeNull();
    expect(sameJwk(publicJwkOf(key), publicJwkOf(key))).toBe(true);
  });
});

describe('signed calls', () => {
  const body = { team_slug: 'northwind', enabled: ['audit'] };
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());

  it('binds path, team, time and the exact body', () => {
    const { token, json } = signCall(key, 'cred-1', '/p/', 'northwind', body);
    expect(JSON.parse(json)).toEqual(body);
    const claims = claimsOf(token);
    expect(checkCallClaims(claims, { path: '/p/', teamSlug: 'northwind', body })).toMatchObject({ ok: true });
    expect(checkCallClaims(claims, { path: '/q/', teamSlug: 'northwind', body })).toEqual({ ok: false, reason: 'audience' });
    expect(checkCallClaims(claims, { path: '/p/', teamSlug: 'contoso', body })).toEqual({ ok: false, reason: 'team' });
    expect(checkCallClaims(claims, { path: '/p/', teamSlug: 'northwind', body: { ...body, enabled: [] } })).toEqual({
      ok: false,
      reason: 'body',
    });
  });

  it('refuses a call signed minutes ago, or claiming a long life', () => {
    const { token } = signCall(key, 'cred-1', '/p/', 'northwind', body);
    const claims = claimsOf(token);
    const past = { ...claims, iat: claims.iat - 300, exp: claims.exp - 300 };
    expect(checkCallClaims(past, { path: '/p/', teamSlug: 'northwind', body })).toEqual({ ok: false, reason: 'stale' });
    const long = { ...claims, exp: claims.iat + 3600 };
    expect(checkCallClaims(long, { path: '/p/', teamSlug: 'northwind', body })).toEqual({ ok: false, reason: 'stale' });
  });
});
