import { describe, expect, test } from 'vitest';
import { payloadHash, plainPayload } from './payload-hash.ts';

describe('the payload hash (unit)', () => {
  test('the same call and input hash alike whatever the order of keys; any other input or call differently', () => {
    const a = payloadHash('adminAdd', { email: 'x@y.example', scopes: ['admin'] });
    expect(payloadHash('adminAdd', { scopes: ['admin'], email: 'x@y.example' })).toBe(a);
    expect(payloadHash('adminAdd', { email: 'x@y.example', scopes: ['admin', 'integrator'] })).not.toBe(a);
    expect(payloadHash('adminAdd', { email: 'X@y.example', scopes: ['admin'] })).not.toBe(a);
    expect(payloadHash('adminRemove', { email: 'x@y.example', scopes: ['admin'] })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the stored payload is plain JSON: what is approved is what runs', () => {
    expect(plainPayload({ a: undefined, b: 1, c: [1, 'x'] })).toEqual({ b: 1, c: [1, 'x'] });
    expect(plainPayload(undefined)).toEqual({});
  });
});
