/** The screens' small rules, kept apart so they are tested without rendering. */

type ScoreLevel = 'healthy' | 'fair' | 'at_risk';

/** At risk below the audit policy's threshold; healthy from 80; fair between. */
export const scoreLevel = (score: number, atRiskBelow: number): ScoreLevel =>
  score < atRiskBelow ? 'at_risk' : score < 80 ? 'fair' : 'healthy';
