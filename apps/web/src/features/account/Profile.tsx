import { Alert, Avatar, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { trackInteraction } from '../../lib/analytics.ts';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { useConsoleContext } from '../../lib/console-context.ts';
import { fieldProps } from '../../lib/form.ts';
import { initialOf } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useAdminInfoQuery, useRenameTeamMutation } from '../team/index.ts';

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
            <Text fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="profile-name">
              {admin.data?.user_name || '–'}
            </Text>
            <Text size="xs" c="dimmed" mt={6}>
              {t('profile.email')}
            </Text>
            <Text data-testid="profile-email">
              <EmailAddress address={admin.data?.user_email ?? ''} />
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
  const rename = useRenameTeamMutation();
  const form = useForm({
    initialValues: { name: current },
    // The contracts' TeamName speaks of a family; an organisation's profile asks for a team name.
    validate: { name: (name) => (name.trim() ? null : 'profile.team_name_required') },
    validateInputOnBlur: true,
  });
  const submit = form.onSubmit(({ name }) =>
    rename.mutate(name.trim(), {
      onSuccess: () => notifications.show({ color: 'teal', message: t('profile.team_name_saved') }),
    }),
  );
  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {rename.isError && <Alert color="red">{t(errorMessage(rename.error), errorValues(rename.error))}</Alert>}
          <TextInput
            label={t('profile.team_name')}
            maxLength={100}
            {...fieldProps(form, 'name', t)}
            data-testid="profile-team-name"
          />
          <Button
            type="submit"
            w="fit-content"
            loading={rename.isPending}
            disabled={form.values.name.trim() === current || !form.isValid()}
          >
            {t('common.save')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
