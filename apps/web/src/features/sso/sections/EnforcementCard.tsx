import { Alert, Card, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { DataFetchError } from '../../../components/StatusScreens.tsx';
import { ApprovalRequired, errorMessage, errorValues } from '../../../lib/api-error.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useSsoMutation, useSsoPolicyQuery } from '../api.ts';

export function EnforcementCard() {
  const { t } = useTranslation();
  const policy = useSsoPolicyQuery();
  const mutation = useSsoMutation();
  if (policy.isError) return <DataFetchError onRetry={() => void policy.refetch()} />;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="sso-enforcement">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('sso.enforce_title')}
        </Title>
        {/* A change held for approval is said by the screen's notice, not as a failure. */}
        {mutation.isError && !(mutation.error instanceof ApprovalRequired) && (
          <Alert color="red" data-testid="sso-policy-error">
            {t(errorMessage(mutation.error), errorValues(mutation.error))}
          </Alert>
        )}
        {policy.isPending ? (
          <Skeleton h={100} />
        ) : (
          <>
            <Switch
              label={t('sso.enforce')}
              description={t('sso.enforce_hint')}
              checked={policy.data.enforce_sso}
              onChange={(e) =>
                mutation.mutate(
                  { kind: 'enforce', enforce_sso: e.currentTarget.checked },
                  { onSuccess: () => notifications.show({ color: 'teal', message: t('successfully updated') }) },
                )
              }
              data-testid="sso-enforce"
            />
            <Text fw={600} size="sm" mt="sm">
              {t('sso.excluded_title')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('sso.excluded_hint')}
            </Text>
            <Stack gap={6}>
              {policy.data.admins.map((admin) => (
                <Switch
                  key={admin.email}
                  label={`${admin.name || admin.email} (${admin.email})`}
                  checked={admin.excluded}
                  onChange={(e) =>
                    mutation.mutate(
                      e.currentTarget.checked
                        ? { kind: 'exclude', add: [admin.email], remove: [] }
                        : { kind: 'exclude', add: [], remove: [admin.email] },
                    )
                  }
                  data-testid={`sso-exclude-${admin.email}`}
                />
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Card>
  );
}
