import { COPIED_MS, ONBOARDING_ERROR_KEYS } from '@latchkey/contracts/client';
import { Alert, Button, CopyButton, Group, Loader, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { Icon } from '../../../components/Icon.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useHelpLinkQuery } from '../api.ts';

/** 1.1: a link the cloud's administrator opens to add the product, with a copy button. */
export function AdminHelp({ cloud }: { cloud: 'google_drive' | 'one_drive' }) {
  const { t } = useTranslation();
  const link = useHelpLinkQuery(cloud);
  return (
    <Stack gap="md">
      <Stack gap="xs">
        <Title order={1} size="h2">
          {t('onboarding.admin_help.title')}
        </Title>
        <Text c="dimmed">{t('onboarding.admin_help.body', { cloud: t(`onboarding.cloud.${cloud}`) })}</Text>
      </Stack>
      {link.isError ? (
        <Alert color="red" data-testid="help-link-error">
          {t(ONBOARDING_ERROR_KEYS.link_fetch_error)}
        </Alert>
      ) : link.data ? (
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput label={t('onboarding.help.link')} value={link.data} readOnly style={{ flex: 1 }} data-testid="help-link" />
          <CopyButton value={link.data} timeout={COPIED_MS}>
            {({ copied, copy }) => (
              <Tooltip label={t('onboarding.copied')} opened={copied} withArrow>
                <Button
                  variant={copied ? 'light' : 'default'}
                  color={copied ? 'teal' : undefined}
                  leftSection={<Icon name="copy" size={16} />}
                  onClick={copy}
                  data-testid="help-link-copy"
                  data-copied={copied}
                >
                  {t(copied ? 'onboarding.copied' : 'onboarding.copy')}
                </Button>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      ) : (
        <Loader size="sm" />
      )}
    </Stack>
  );
}
