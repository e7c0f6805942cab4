import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { SectionCard } from '../../../components/SectionCard.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useEventLogsConfigQuery, usePullTokenMutation } from '../api.ts';

/** The pull API's token (SIEMs that poll): shown once when made; a new one replaces the old. */
export function PullTokenCard() {
  const { t } = useTranslation();
  const config = useEventLogsConfigQuery();
  const token = usePullTokenMutation();
  const [shown, setShown] = useState<string | null>(null);
  const created = config.data?.pull_token_created_at ?? null;
  return (
    <SectionCard title={t('eventlogs.pull.title')} testId="pull-token-card">
      <Text size="sm" c="dimmed">
        {t('eventlogs.pull.description')}
      </Text>
      <Text size="sm" data-testid="pull-token-state">
        {created ? t('eventlogs.pull.created', { date: formatDateTime(created) }) : t('eventlogs.pull.none')}
      </Text>
      {shown && (
        <Alert color="yellow" data-testid="pull-token-shown">
          <Stack gap="xs">
            <Text size="sm">{t('eventlogs.pull.copy_now')}</Text>
            <Group gap="xs" wrap="nowrap">
              <Code style={{ wordBreak: 'break-all' }}>{shown}</Code>
              <CopyButton value={shown}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {t(copied ? 'eventlogs.pull.copied' : 'eventlogs.pull.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <Group gap="sm">
        <Button
          size="sm"
          variant="default"
          loading={token.isPending}
          onClick={() => token.mutate({ action: 'create' }, { onSuccess: (r) => setShown(r.token) })}
          data-testid="pull-token-create"
        >
          {t(created ? 'eventlogs.pull.replace' : 'eventlogs.pull.create')}
        </Button>
        {created && (
          <Button
            size="sm"
            variant="subtle"
            color="red"
            disabled={token.isPending}
            onClick={() => token.mutate({ action: 'revoke' }, { onSuccess: () => setShown(null) })}
            data-testid="pull-token-revoke"
          >
            {t('eventlogs.pull.revoke')}
          </Button>
        )}
      </Group>
    </SectionCard>
  );
}
