import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Icon } from '../../../components/Icon.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';
import { fetchConsentUrl, postWizardEvent, verifyCloudUser } from '../api.ts';
import { runConsentPopup } from '../consent-popup.ts';
import { codeOf, type Problem, problemOf } from './problem.ts';

/** Step 1 with a cloud: add the product to the cloud's enterprise apps through the consent popup. */
export function AddToEnterprise({
  cloud,
  added,
  onProblem,
  onAdded,
}: {
  cloud: 'google_drive' | 'one_drive';
  added: boolean;
  onProblem: (p: Problem | null) => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<'idle' | 'pending' | 'success' | 'failed'>(added ? 'success' : 'idle');
  const report = (event: 'initiated' | 'success' | 'failed', code?: string) =>
    postWizardEvent({
      stage: 'add_to_enterprise',
      action: 'add_to_enterprise',
      event,
      state: event === 'failed' ? 'failed' : 'success',
      ...(code ? { payload: { code } } : {}),
    }).catch(() => undefined);

  // Called from the click: the popup opens before anything is awaited, or browsers block it.
  const start = async () => {
    onProblem(null);
    setStatus('pending');
    let result = await runConsentPopup(
      () => fetchConsentUrl(cloud),
      () => void report('initiated'),
    );
    if (result.status === 'success') {
      try {
        await verifyCloudUser();
      } catch (error) {
        result = {
          status: 'failed',
          code: codeOf(error) === 'app_addition_not_verified' ? 'app_addition_not_verified' : 'process_failed',
        };
      }
    }
    if (result.status === 'success') {
      void report('success');
      setStatus('success');
      onAdded();
    } else {
      void report('failed', result.code);
      setStatus('failed');
      onProblem(problemOf(result.code));
    }
  };

  const cloudName = t(`onboarding.cloud.${cloud}`);
  return (
    <Stack gap="md">
      <Stack gap="xs">
        <Title order={1} size="h2">
          {t('onboarding.add_to_enterprise.title')}
        </Title>
        <Text c="dimmed">{t('onboarding.add_to_enterprise.body', { cloud: cloudName })}</Text>
      </Stack>
      {status === 'success' ? (
        <Alert color="teal" icon={<Icon name="onboarding" />} data-testid="consent-success">
          {t('onboarding.add.success', { cloud: cloudName })}
        </Alert>
      ) : (
        <Group>
          <Button
            leftSection={<Icon name="cloud" size={18} />}
            loading={status === 'pending'}
            onClick={() => void start()}
            data-testid="consent-start"
          >
            {t('onboarding.add.action', { cloud: cloudName })}
          </Button>
          {status === 'pending' && (
            <Text size="sm" c="dimmed">
              {t('onboarding.add.pending')}
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}
