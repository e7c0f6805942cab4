import type { MemberSource } from '@latchkey/contracts/client';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.ts';

const SOURCE_COLORS = { scim: 'grape', directory: 'cyan' } as const;

/** Where a member came from: plain text for the console's own, a badge for a source that manages them. */
export function MemberSourceBadge({ source }: { source: MemberSource }) {
  const { t } = useTranslation();
  if (source === 'console')
    return (
      <Text size="sm" c="dimmed" data-testid="member-source" data-source={source}>
        {t('members.source.console')}
      </Text>
    );
  return (
    <Badge variant="light" color={SOURCE_COLORS[source]} data-testid="member-source" data-source={source}>
      {t(`members.source.${source}`)}
    </Badge>
  );
}

/** On a member's page: who manages their name and e-mail, when it is not the console. */
export function MemberManagedNote({ source }: { source: MemberSource }) {
  const { t } = useTranslation();
  if (source === 'console') return null;
  return (
    <Text size="sm" c="dimmed" data-testid="member-managed" data-source={source}>
      {t(`members.managed.${source}`)}
    </Text>
  );
}
