import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useConsoleContext } from '../../lib/console-context.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useDirectoryQuery } from './api.ts';
import { ConnectionCard } from './sections/ConnectionCard.tsx';
import { RunsCard } from './sections/RunsCard.tsx';
import { SyncCard } from './sections/SyncCard.tsx';

/** settings/directory-sync: the Hub reads the team's LDAP or Active Directory; a preview before anything changes. */
export function DirectorySync() {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  const settings = useDirectoryQuery(ctx.hubEnabled);
  if (!ctx.hubEnabled)
    return (
      <Alert color="blue" data-testid="directory-needs-hub">
        <Text size="sm">{t('directory.needs_hub')}</Text>
        <Anchor component={Link} href="/integration" size="sm">
          {t('directory.connect_hub')}
        </Anchor>
      </Alert>
    );
  if (settings.isError) return <DataFetchError onRetry={() => void settings.refetch()} />;
  const connection = settings.data?.connection ?? null;
  return (
    <Stack gap="lg" data-testid="directory-sync">
      <Text c="dimmed" size="sm">
        {t('directory.intro')}
      </Text>
      {settings.data && <ConnectionCard connection={connection} />}
      {connection && <SyncCard connection={connection} runs={settings.data?.runs ?? []} />}
      {connection && <RunsCard runs={settings.data?.runs} />}
    </Stack>
  );
}
