import { Badge } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.ts';

/** A vault score with a word as well as a colour: healthy, fair or at risk (below the policy's threshold). */
export function ScoreBadge({ score, atRiskBelow }: { score: number; atRiskBelow: number }) {
  const { t } = useTranslation();
  const level = score < atRiskBelow ? 'at_risk' : score < 80 ? 'fair' : 'healthy';
  const color = level === 'at_risk' ? 'red' : level === 'fair' ? 'yellow' : 'teal';
  return (
    <Badge color={color} variant="light" data-testid="score-badge" style={{ overflow: 'visible' }} miw="max-content">
      {score} · {t(`audit.level.${level}`)}
    </Badge>
  );
}
