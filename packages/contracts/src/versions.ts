import { FEATURE_VERSIONS } from './constants.ts';

/** Compares dotted versions numerically: '2.10' is newer than '2.9'; '1.09' equals '1.9'. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

export type Feature = keyof typeof FEATURE_VERSIONS;

/** A feature the connected Hub is too old for; an unknown Hub version is not held against it. */
export const hubTooOld = (hubVersion: string | null | undefined, feature: Feature): boolean =>
  Boolean(hubVersion) && compareVersions(hubVersion as string, FEATURE_VERSIONS[feature]) < 0;
