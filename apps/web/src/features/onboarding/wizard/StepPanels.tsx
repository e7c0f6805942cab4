import { Alert, Box, Center, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Icon, type IconName } from '../../../components/Icon.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';
import type { Problem } from './problem.ts';

const MEDIA: Record<string, IconName> = {
  welcome: 'onboarding',
  resume: 'switch',
  add_to_enterprise: 'cloud',
  admin_help: 'info',
  setup: 'download',
  all_set: 'onboarding',
};

/**
 * The progress indicator: one 85 px segment per step between welcome and finish (spec §2, §9), and
 * the step's number while the admin is on one ("Step 1 of 2"; welcome, resume and finish have none).
 */
export function Progress({ total, reached, current }: { total: number; reached: number; current: number | null }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Group gap={6} aria-hidden data-testid="onboarding-steps" data-reached={reached} data-total={total}>
        {Array.from({ length: total }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments are positions
          <Box key={i} w={85} h={6} style={{ borderRadius: 3 }} bg={i < reached ? 'blue.6' : 'gray.3'} />
        ))}
      </Group>
      {current !== null && (
        <Text size="xs" c="dimmed" data-testid="onboarding-progress">
          {t('onboarding.progress', { current, total })}
        </Text>
      )}
    </Stack>
  );
}

export function StepText({ stage }: { stage: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Title order={1} size="h2">
        {t(`onboarding.${stage}.title`)}
      </Title>
      <Text c="dimmed">{t(`onboarding.${stage}.body`)}</Text>
    </Stack>
  );
}

/** The media panel (md and wider): the step's picture. */
export function Media({ stage }: { stage: string }) {
  const { t } = useTranslation();
  return (
    <Center
      h="100%"
      mih={440}
      style={{
        background: 'linear-gradient(135deg, var(--mantine-color-blue-6), var(--mantine-color-indigo-8))',
        borderTopRightRadius: 'var(--mantine-radius-md)',
        borderBottomRightRadius: 'var(--mantine-radius-md)',
      }}
      role="img"
      aria-label={t(`onboarding.${stage}.title`)}
      data-testid="onboarding-media"
    >
      <ThemeIcon size={120} radius={60} variant="white" color="blue">
        <Icon name={MEDIA[stage] ?? 'onboarding'} size={64} stroke={1.25} />
      </ThemeIcon>
    </Center>
  );
}

/** What went wrong, with the steps to allow popups where the browser blocked one. */
export function ProblemAlert({ problem }: { problem: Problem }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<Icon name="alert" />} data-testid="onboarding-error" data-key={problem.key}>
      <Text size="sm">{t(problem.key)}</Text>
      {problem.steps && (
        <List size="sm" type="ordered" mt="xs" data-testid="popup-steps">
          <List.Item>{t('onboarding.popups_blocked.step1')}</List.Item>
          <List.Item>{t('onboarding.popups_blocked.step2')}</List.Item>
          <List.Item>{t('onboarding.popups_blocked.step3')}</List.Item>
        </List>
      )}
    </Alert>
  );
}
