import { generate } from 'otplib';
import { describe, expect, test } from 'vitest';
import { currentTotp, matchTotp, newTotpSecret, TOTP_PERIOD_SECONDS } from '../../platform/totp.ts';

// RFC 6238 Appendix B: the seeds are ASCII "1234567890" repeated to the hash's key length.
const SEEDS = {
  sha1: '12345678901234567890',
  sha256: '12345678901234567890123456789012',
  sha512: '1234567890123456789012345678901234567890123456789012345678901234',
} as const;
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('RFC 6238 test vectors', () => {
  for (const [time, sha1, sha256, sha512] of VECTORS) {
    test(`T = ${time}`, async () => {
      for (const [algorithm, expected] of [
        ['sha1', sha1],
        ['sha256', sha256],
        ['sha512', sha512],
      ] as const) {
        const code = await generate({
          secret: new TextEncoder().encode(SEEDS[algorithm]),
          algorithm,
          digits: 8,
          period: 30,
          epoch: time,
        });
        expect(code, algorithm).toBe(expected);
      }
    });
  }

  test('the console’s own settings (SHA-1, 6 digits, base32 secret) give the vectors’ last six digits', async () => {
    // base32 of "12345678901234567890".
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(TOTP_PERIOD_SECONDS).toBe(30);
    for (const [time, sha1] of VECTORS) expect(await currentTotp(secret, time)).toBe(sha1.slice(2));
  });
});

describe('matchTotp', () => {
  test('accepts the current code and one step either side, nothing further', async () => {
    const secret = newTotpSecret();
    const now = Math.floor(Date.now() / 1000);
    const step = Math.floor(now / 30);
    expect(await matchTotp(secret, await currentTotp(secret, now), null)).toBe(step);
    expect(await matchTotp(secret, await currentTotp(secret, now - 30), null)).toBe(step - 1);
    expect(await matchTotp(secret, await currentTotp(secret, now + 30), null)).toBe(step + 1);
    expect(await matchTotp(secret, await currentTotp(secret, now - 90), null)).toBeNull();
    expect(await matchTotp(secret, await currentTotp(secret, now + 90), null)).toBeNull();
  });

  test('refuses a code of a step already used (replay) or an earlier one', async () => {
    const secret = newTotpSecret();
    const now = Math.floor(Date.now() / 1000);
    const step = Math.floor(now / 30);
    const code = await currentTotp(secret, now);
    expect(await matchTotp(secret, code, step)).toBeNull();
    expect(await matchTotp(secret, await currentTotp(secret, now - 30), step)).toBeNull();
    expect(await matchTotp(secret, await currentTotp(secret, now + 30), step)).toBe(step + 1);
  });

  test('a 20-byte secret, base32', () => {
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
  });
});
