import { Alert, Avatar, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useConsoleContext } from '../../app/layout/console-context.ts';
import { initialOf } from '../../app/layout/ProfileMenu.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useAdminInfoQuery } from '../console/index.ts';
import { trackInteraction, useRenameTeamMutation } from './api.ts';

/** The signed-in admin (name, email, initial) and, for a super admin, the team's name. */
export function Profile() {
  const { t } = useTranslation();
  const admin = useAdminInfoQuery();
  const { team, restricted } = useConsoleContext();
  useEffect(() => trackInteraction('profile', 'profile_page', 'view'), []);
  if (admin.isError) return <DataFetchError onRetry={() => void admin.refetch()} />;
  return (
    <Stack gap="lg" maw={640} data-testid="profile">
      <Card withBorder radius="md" padding="lg">
        <Group wrap="nowrap" gap="md">
          <Avatar size={56} radius="xl" color="indigo" data-testid="profile-initial">
            {admin.data ? initialOf(admin.data.user_name, admin.data.user_email) : ''}
          </Avatar>
          <Stack gap={2} miw={0}>
            <Text size="xs" c="dimmed">
              {t('profile.name')}
            </Text>
            <Text fw={600} truncate="end" data-testid="profile-name">
              {admin.data?.user_name || '–'}
            </Text>
            <Text size="xs" c="dimmed" mt={6}>
              {t('profile.email')}
            </Text>
            <Text truncate="end" data-testid="profile-email">
              {admin.data?.user_email ?? ''}
            </Text>
          </Stack>
        </Group>
      </Card>
      {!restricted && <TeamNameForm current={team.team_name} />}
    </Stack>
  );
}

function TeamNameForm({ current }: { current: string }) {
  const { t } = useTranslation();
  const [name, setName] = useState(current);
  const [touched, setTouched] = useState(false);
  const rename = useRenameTeamMutation();
  const empty = name.trim() === '';
  return (
    <Card withBorder radius="md" padding="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (empty) return;
          rename.mutate(name.trim(), {
            onSuccess: () => notifications.show({ color: 'teal', message: t('profile.team_name_saved') }),
          });
        }}
      >
        <Stack gap="md">
          {rename.isError && <Alert color="red">{t(errorMessage(rename.error), errorValues(rename.error))}</Alert>}
          <TextInput
            label={t('profile.team_name')}
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched && empty ? t('profile.team_name_required') : undefined}
            data-testid="profile-team-name"
          />
          <Button type="submit" w="fit-content" loading={rename.isPending} disabled={name.trim() === current || empty}>
            {t('common.save')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
