import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.ts';
import { Icon, type IconName } from './Icon.tsx';

function StatusScreen({
  icon,
  color,
  titleKey,
  bodyKey,
  onRetry,
  testId,
}: {
  icon: IconName;
  color: string;
  titleKey: string;
  bodyKey?: string;
  onRetry?: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Center py={64} px="md" data-testid={testId}>
      <Stack align="center" gap="sm" maw={420} ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color={color}>
          <Icon name={icon} size={26} />
        </ThemeIcon>
        <Title order={2} size="h4">
          {t(titleKey)}
        </Title>
        {bodyKey && (
          <Text c="dimmed" size="sm">
            {t(bodyKey)}
          </Text>
        )}
        {onRetry && (
          <Button onClick={onRetry} variant="light" mt="xs">
            {t('common.retry')}
          </Button>
        )}
      </Stack>
    </Center>
  );
}

/** The generic page-error screen: Retry reloads the page (spec §2). */
export const PageError = () => (
  <StatusScreen
    icon="alert"
    color="red"
    titleKey="page_error.title"
    bodyKey="page_error.body"
    onRetry={() => window.location.reload()}
    testId="page-error"
  />
);

/** A failed fetch, in place of the content that failed (spec §2, UI.md). */
export const DataFetchError = ({ onRetry }: { onRetry: () => void }) => (
  <StatusScreen
    icon="alert"
    color="orange"
    titleKey="data_fetch_error"
    bodyKey="data_fetch_error.body"
    onRetry={onRetry}
    testId="data-fetch-error"
  />
);

/** Desktop-only pages on a small screen (spec §2). */
export const UnavailableOnMobile = () => (
  <StatusScreen
    icon="mobile"
    color="gray"
    titleKey="page_unavailable_on_mobile"
    bodyKey="page_unavailable_on_mobile.body"
    testId="mobile-unavailable"
  />
);

/** A screen whose features are not built yet: it says so instead of pretending. */
export const NotBuiltYet = () => (
  <StatusScreen icon="tools" color="indigo" titleKey="page.not_built" bodyKey="page.not_built.body" testId="not-built" />
);
