import { generate, generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 with the authenticator apps' defaults: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;

export const newTotpSecret = (): string => generateSecret({ length: 20 });

export const totpUri = (secret: string, account: string): string =>
  generateURI({ issuer: 'Latchkey', label: account, secret, period: TOTP_PERIOD_SECONDS });

/**
 * Checks a code against the current step and one step either side (clock drift), and only steps
 * after `afterStep`: the step the last accepted code used, so a code is accepted once. Returns
 * the step the code matched, or null.
 */
export async function matchTotp(secret: string, token: string, afterStep: number | null): Promise<number | null> {
  const result = await verify({
    secret,
    token,
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** The current code (tests and the demo). */
export const currentTotp = (secret: string, epochSeconds?: number): Promise<string> =>
  generate({ secret, period: TOTP_PERIOD_SECONDS, ...(epochSeconds === undefined ? {} : { epoch: epochSeconds }) });
