import { Badge } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.ts';
import { scoreLevel } from './rules.ts';

export const LEVEL_COLOR = { at_risk: 'red', fair: 'yellow', healthy: 'teal' } as const;

/** A vault score with a word as well as a colour: healthy, fair or at risk (below the policy's threshold). */
export function ScoreBadge({ score, atRiskBelow }: { score: number; atRiskBelow: number }) {
  const { t } = useTranslation();
  const level = scoreLevel(score, atRiskBelow);
  return (
    <Badge color={LEVEL_COLOR[level]} variant="light" data-testid="score-badge" style={{ overflow: 'visible' }} miw="max-content">
      {score} · {t(`audit.level.${level}`)}
    </Badge>
  );
}
