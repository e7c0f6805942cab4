import { Alert, Box, Center, Group, List, Stack, Text, Title } from '@mantine/core';
import { Icon } from '../../../components/Icon.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';
import cloud from '../media/cloud.svg';
import cloudStill from '../media/cloud-still.svg';
import setup from '../media/setup.svg';
import setupStill from '../media/setup-still.svg';
import team from '../media/team.svg';
import teamStill from '../media/team-still.svg';
import type { Problem } from './problem.ts';

/** Each picture moving, and still for an admin who asked for reduced motion; shipped with the console. */
const PICTURES = {
  team: { moving: team, still: teamStill },
  cloud: { moving: cloud, still: cloudStill },
  setup: { moving: setup, still: setupStill },
} as const;

const MEDIA: Record<string, keyof typeof PICTURES> = {
  welcome: 'team',
  resume: 'team',
  add_to_enterprise: 'cloud',
  admin_help: 'cloud',
  setup: 'setup',
  all_set: 'team',
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

/**
 * The media panel (md and wider, spec §2): the step's animated picture, still when the browser
 * asks for reduced motion (the <source> the browser picks by media query), with its text alternative.
 */
export function Media({ stage }: { stage: string }) {
  const { t } = useTranslation();
  const name = MEDIA[stage] ?? 'team';
  const picture = PICTURES[name];
  return (
    <Center
      h="100%"
      mih={440}
      p="xl"
      style={{
        background: 'linear-gradient(135deg, var(--mantine-color-blue-6), var(--mantine-color-indigo-8))',
        borderTopRightRadius: 'var(--mantine-radius-md)',
        borderBottomRightRadius: 'var(--mantine-radius-md)',
      }}
      data-testid="onboarding-media"
      data-media={name}
    >
      <picture>
        <source media="(prefers-reduced-motion: reduce)" srcSet={picture.still} data-testid="onboarding-media-still" />
        <img
          src={picture.moving}
          alt={t(`onboarding.media.${name}`)}
          width={320}
          height={320}
          style={{ display: 'block', maxWidth: '100%', height: 'auto' }}
          data-testid="onboarding-media-image"
        />
      </picture>
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
