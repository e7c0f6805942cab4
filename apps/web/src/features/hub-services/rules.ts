/** The screens' small rules, kept apart so they are tested without rendering. */

export type ScoreLevel = 'healthy' | 'fair' | 'at_risk';

/** At risk below the audit policy's threshold; healthy from 80; fair between. */
export const scoreLevel = (score: number, atRiskBelow: number): ScoreLevel =>
  score < atRiskBelow ? 'at_risk' : score < 80 ? 'fair' : 'healthy';

/** An approved request whose recovery link still works: deleting it needs force_delete. */
export const linkIsLive = (r: { state: string; link_expires_at: string | null }, now = Date.now()): boolean =>
  r.state === 'approved' && r.link_expires_at !== null && Date.parse(r.link_expires_at) > now;

/** A whole number within bounds (number inputs may hold anything while typing). */
export const within = (n: unknown, b: { min: number; max: number }): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= b.min && n <= b.max;
