import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import { Icon } from '../../../components/Icon.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';
import { postWizardEvent, useDownloadQuery } from '../api.ts';
import { detectOs } from '../flow.ts';
import { StepText } from './StepPanels.tsx';

/** Setup: the app for this computer's system, 'Other Platforms', and (without a cloud) the master password. */
export function Setup({ withCloud }: { withCloud: boolean }) {
  const { t } = useTranslation();
  const os = detectOs(navigator.userAgent, navigator.platform);
  const mine = useDownloadQuery(os);
  const all = useDownloadQuery('all');
  const track = (id: string) =>
    void postWizardEvent({ stage: 'setup', action: 'download', event: 'click', state: 'success', payload: { os: id } }).catch(
      () => undefined,
    );
  return (
    <Stack gap="md">
      <StepText stage="setup" />
      <Group>
        {os && (
          <Button
            component="a"
            href={mine.data ?? '#'}
            target="_blank"
            rel="noopener noreferrer"
            disabled={!mine.data}
            leftSection={<Icon name="download" size={18} />}
            onClick={() => track(os)}
            data-testid="download-mine"
          >
            {t('onboarding.setup.download', { os: t(`onboarding.os.${os}`) })}
          </Button>
        )}
        <Anchor
          href={all.data ?? '#'}
          target="_blank"
          rel="noopener noreferrer"
          onClick={() => track('all')}
          data-testid="download-other"
        >
          {t('onboarding.setup.other')}
        </Anchor>
      </Group>
      {!withCloud && (
        <Alert
          color="blue"
          icon={<Icon name="lock" />}
          title={t('onboarding.master_password.title')}
          data-testid="master-password"
        >
          {t('onboarding.master_password.body')}
        </Alert>
      )}
    </Stack>
  );
}
