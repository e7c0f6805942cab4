import { Alert, Button, List, ScrollArea, Text } from '@mantine/core';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import type { useVerifyChainMutation } from './api.ts';

type Verify = ReturnType<typeof useVerifyChainMutation>;

/** Starts a verification of the team's whole hash chain on the Hub. */
export function VerifyChainButton({ verify }: { verify: Verify }) {
  const { t } = useTranslation();
  return (
    <Button variant="default" size="sm" loading={verify.isPending} onClick={() => verify.mutate()} data-testid="verify-button">
      {t('eventlogs.verify.button')}
    </Button>
  );
}

/** The verification's answer: the chain holds, or every break it found (the Hub lists the first 1,000 and counts all). */
export function VerifyChainResult({ verify }: { verify: Verify }) {
  const { t } = useTranslation();
  if (verify.error)
    return (
      <Alert color="red" withCloseButton onClose={verify.reset} data-testid="verify-result">
        {t(errorMessage(verify.error), errorValues(verify.error))}
      </Alert>
    );
  const result = verify.data;
  if (!result) return null;
  const checked = formatNumber(result.checked);
  if (result.ok)
    return (
      <Alert color="teal" withCloseButton onClose={verify.reset} data-testid="verify-result" data-ok="true">
        {t('eventlogs.verify.ok', { n: checked })}
      </Alert>
    );
  const unlisted = result.problem_count - result.problems.length;
  return (
    <Alert
      color="red"
      title={t('eventlogs.verify.broken', { found: formatNumber(result.problem_count), n: checked })}
      withCloseButton
      onClose={verify.reset}
      data-testid="verify-result"
      data-ok="false"
    >
      <ScrollArea.Autosize mah={240} type="auto">
        <List size="sm" spacing={2} data-testid="verify-problems">
          {result.problems.map((p) => (
            <List.Item key={`${p.seq}-${p.kind}`} data-seq={p.seq} data-kind={p.kind}>
              {t(`eventlogs.verify.problem.${p.kind}`, { seq: formatNumber(p.seq) })}
            </List.Item>
          ))}
        </List>
      </ScrollArea.Autosize>
      {unlisted > 0 ? (
        <Text size="sm" mt={4}>
          {t('eventlogs.verify.more', { n: formatNumber(unlisted) })}
        </Text>
      ) : null}
    </Alert>
  );
}
