import { LOGO_MAX_BYTES, LOGO_TYPES } from '@latchkey/contracts/client';
import { Alert, Button, Card, Center, FileButton, Group, Image, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useLogoMutation, useLogoQuery } from './api.ts';
import { isLogoType, logoFileProblem, toBase64 } from './logo-file.ts';

/** settings/organization-branding: the team logo shown in the top bar and on the dashboard. */
export function Branding() {
  const { t } = useTranslation();
  const logo = useLogoQuery();
  const mutation = useLogoMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);

  const choose = async (file: File | null) => {
    if (!file) return;
    mutation.reset();
    const bad = logoFileProblem(file);
    setProblem(bad);
    if (bad || !isLogoType(file.type)) return;
    const kind = logo.data ? 'update' : 'upload';
    mutation.mutate(
      { kind, content_type: file.type, data: await toBase64(file) },
      { onSuccess: () => notifications.show({ color: 'teal', message: t(`branding.done.${kind}`) }) },
    );
  };

  if (logo.isError) return <DataFetchError onRetry={() => void logo.refetch()} />;
  return (
    <Card withBorder radius="md" padding="lg" maw={640} data-testid="branding">
      <Stack gap="md">
        <Text fw={600}>{t('branding.logo')}</Text>
        {(problem || mutation.isError) && (
          <Alert color="red" data-testid="branding-error">
            {problem
              ? t(problem, { kb: formatNumber(LOGO_MAX_BYTES / 1024) })
              : t(errorMessage(mutation.error), errorValues(mutation.error))}
          </Alert>
        )}
        <Center
          h={140}
          px="md"
          style={{
            overflow: 'hidden',
            borderRadius: 12,
            border: '1px dashed var(--mantine-color-gray-4)',
            background: 'var(--mantine-color-gray-0)',
          }}
        >
          {logo.isPending ? (
            <Skeleton h={80} w={200} />
          ) : logo.data ? (
            <Image
              src={logo.data.url}
              alt={t('branding.logo')}
              h="auto"
              w="auto"
              mah={96}
              maw="100%"
              fit="contain"
              data-testid="branding-preview"
            />
          ) : (
            <Text c="dimmed" size="sm" data-testid="branding-empty">
              {t('branding.none')}
            </Text>
          )}
        </Center>
        {logo.data && (
          <Text size="xs" c="dimmed" data-testid="branding-meta">
            {t('branding.meta', {
              width: formatNumber(logo.data.width),
              height: formatNumber(logo.data.height),
              kb: formatNumber(Math.ceil(logo.data.size / 1024)),
              when: formatDateTime(logo.data.updated_at),
            })}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t('branding.hint', { kb: formatNumber(LOGO_MAX_BYTES / 1024) })}
        </Text>
        <Group gap="sm">
          <FileButton accept={LOGO_TYPES.join(',')} onChange={(file) => void choose(file)}>
            {(props) => (
              <Button
                {...props}
                loading={mutation.isPending && mutation.variables?.kind !== 'remove'}
                data-testid="branding-upload"
              >
                {t(logo.data ? 'branding.replace' : 'branding.upload')}
              </Button>
            )}
          </FileButton>
          {logo.data && (
            <Button variant="light" color="red" onClick={() => setConfirmRemove(true)} data-testid="branding-remove">
              {t('branding.remove')}
            </Button>
          )}
        </Group>
      </Stack>
      {confirmRemove && (
        <ConfirmDialog
          title={t('branding.remove.title')}
          action={t('branding.remove')}
          pending={mutation.isPending}
          // A failure closes the dialog and shows on the page (branding-error).
          error={null}
          onConfirm={() =>
            mutation.mutate(
              { kind: 'remove' },
              {
                onSuccess: () => {
                  notifications.show({ color: 'teal', message: t('branding.done.remove') });
                  setConfirmRemove(false);
                },
                onError: () => setConfirmRemove(false),
              },
            )
          }
          onClose={() => setConfirmRemove(false)}
          testId="branding-remove-dialog"
          confirmTestId="branding-remove-confirm"
        >
          {t('branding.remove.body')}
        </ConfirmDialog>
      )}
    </Card>
  );
}
