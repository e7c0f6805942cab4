import {
  ADDED_TO_ENTERPRISE_APPS,
  COPIED_MS,
  hasOnboardingCloud,
  ONBOARDING_ERROR_KEYS,
  type OnboardingErrorCode,
  type Team,
  type WizardAction,
  type WizardStep,
  wizardSteps,
} from '@latchkey/contracts/client';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Center,
  CopyButton,
  Grid,
  Group,
  List,
  Loader,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Icon, type IconName } from '../../components/Icon.tsx';
import { call } from '../../lib/api.ts';
import { ApiError, SOMETHING_WENT_WRONG } from '../../lib/api-error.ts';
import { registerBeforeLogout } from '../../lib/before-logout.ts';
import { useConsoleContext } from '../../lib/console-context.ts';
import { useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { teamKeys } from '../team/index.ts';
import { postWizardEvent, useDownloadQuery, useWizardUpdate } from './api.ts';
import { runConsentPopup } from './consent-popup.ts';
import { detectOs, progressAt, stateOnLogout, stepIndexOf } from './flow.ts';

interface Problem {
  key: string;
  /** Popups blocked: the steps to allow them. */
  steps?: boolean;
}

const problemOf = (code: string): Problem => ({
  key: ONBOARDING_ERROR_KEYS[code as OnboardingErrorCode] ?? SOMETHING_WENT_WRONG,
  steps: code === 'popup_blocked' || code === 'browser_popups_blocked',
});
const codeOf = (error: unknown): string => (error instanceof ApiError ? error.code : 'process_failed');

const MEDIA: Record<string, IconName> = {
  welcome: 'onboarding',
  resume: 'switch',
  add_to_enterprise: 'cloud',
  admin_help: 'info',
  setup: 'download',
  all_set: 'onboarding',
};

/** /onboarding (spec §2, §4, §9): the wizard on md and wider; small screens are told to use a computer. */
export function Onboarding() {
  const { t } = useTranslation();
  const small = useMediaQuery('(max-width: 47.99em)', false);
  // The wizard stays mounted (hidden) on small screens, so turning a tablet keeps its place.
  return (
    <>
      {small && (
        <Alert color="gray" icon={<Icon name="mobile" />} data-testid="onboarding-desktop-only">
          {t('onboarding.only_desktop_supported')}
        </Alert>
      )}
      <Box display={small ? 'none' : undefined}>
        <Wizard />
      </Box>
    </>
  );
}

function Wizard() {
  const { t } = useTranslation();
  const { team } = useConsoleContext();
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const slug = useSession()?.team_slug ?? '';
  const update = useWizardUpdate();
  const steps = wizardSteps(team.business_cloud);
  const saved = team.onboarding_wizard.state.stage;
  const [index, setIndex] = useState(() => stepIndexOf(steps, saved));
  // Coming back to a wizard already under way: the Resume Onboarding screen first.
  const [resuming, setResuming] = useState(() => saved !== 'welcome' && stepIndexOf(steps, saved) > 0);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const step = steps[index] as WizardStep;
  const cloud = hasOnboardingCloud(team.business_cloud) ? team.business_cloud : null;
  const added = team.onboarding_wizard.state[ADDED_TO_ENTERPRISE_APPS] === true;
  const at = (stage: string) => stepIndexOf(steps, stage);

  // Logging out mid-wizard saves where the admin was (spec §4).
  const current = useRef(step);
  current.current = step;
  useEffect(
    () =>
      registerBeforeLogout(async () => {
        const s = current.current;
        await postWizardEvent({ stage: s.stage, action: 'logout', event: 'click', state: 'success' }).catch(() => undefined);
        const wizard = await call('onboardingUpdate', { state: { ...stateOnLogout(s), resume_notification: false } });
        // The next sign-in in this tab reads the saved state, not the one cached before.
        client.setQueryData<Team>(teamKeys.team(slug), (old) => (old ? { ...old, onboarding_wizard: wizard } : old));
      }),
    [client, slug],
  );

  const event = (action: WizardAction, state: 'success' | 'failed' = 'success', payload?: { os?: string; code?: string }) =>
    postWizardEvent({ stage: step.stage, action, event: 'click', state, ...(payload ? { payload } : {}) });

  /** Spec §4: post the wizard event, then update the stage, then move. */
  const go = async (action: WizardAction, to: number, after?: Problem) => {
    setBusy(true);
    setProblem(null);
    try {
      await event(action);
      await update.mutateAsync({
        show: true,
        enable_console: false,
        resume_notification: false,
        stage: (steps[to] as WizardStep).stage,
      });
      setIndex(to);
      if (after) setProblem(after);
    } catch {
      setProblem({ key: SOMETHING_WENT_WRONG });
    } finally {
      setBusy(false);
    }
  };

  const resume = async () => {
    setBusy(true);
    try {
      await postWizardEvent({ stage: step.stage, action: 'resume', event: 'click', state: 'success' });
      await update.mutateAsync({ show: true, enable_console: false, resume_notification: false, stage: step.stage });
      setResuming(false);
      if (step.stage === 'add_to_enterprise' && !added) setProblem({ key: 'onboarding.app_not_added' });
    } catch {
      setProblem({ key: SOMETHING_WENT_WRONG });
    } finally {
      setBusy(false);
    }
  };

  const finish = async () => {
    setBusy(true);
    try {
      await event('next');
      await update.mutateAsync({ show: false, enable_console: true, resume_notification: false, stage: 'all_set' });
      navigate('/dashboard');
    } catch {
      setProblem({ key: SOMETHING_WENT_WRONG });
      setBusy(false);
    }
  };

  /** 1.1: set the wizard aside; the sidebar offers to resume it (spec §2). */
  const explore = async () => {
    setBusy(true);
    try {
      await event('explore_console');
      await update.mutateAsync({ show: true, enable_console: false, resume_notification: true, stage: 'add_to_enterprise' });
      navigate('/');
    } catch {
      setProblem({ key: SOMETHING_WENT_WRONG });
      setBusy(false);
    }
  };

  /** Step 1's Next: the connection must be verified before moving on. */
  const verifyThenNext = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await call('onboardingCloudConnection', {});
    } catch (error) {
      const code = codeOf(error);
      await event('next', 'failed', { code }).catch(() => undefined);
      setProblem(problemOf(code));
      setBusy(false);
      return;
    }
    setBusy(false);
    await go('next', at('setup'));
  };

  const stage = resuming ? 'resume' : step.stage;
  const progress = progressAt(steps, index);
  return (
    <Card
      withBorder
      radius="md"
      padding={0}
      data-testid="onboarding-wizard"
      data-stage={stage}
      data-step={resuming ? 'resume' : step.number}
    >
      <Grid gap={0}>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg" p="xl" mih={440} justify="space-between">
            <Stack gap="lg">
              <Progress total={progress.total} reached={resuming ? 0 : progress.reached} />
              {problem && (
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
              )}
              {resuming ? (
                <StepText stage="resume" />
              ) : step.stage === 'add_to_enterprise' && cloud ? (
                <AddToEnterprise
                  cloud={cloud}
                  added={added}
                  onProblem={setProblem}
                  onAdded={() => void client.invalidateQueries({ queryKey: teamKeys.team(slug) })}
                />
              ) : step.stage === 'admin_help' && cloud ? (
                <AdminHelp cloud={cloud} />
              ) : step.stage === 'setup' ? (
                <Setup withCloud={cloud !== null} />
              ) : (
                <StepText stage={step.stage} />
              )}
            </Stack>
            <Group justify="space-between" data-testid="onboarding-actions">
              <Group gap="sm">
                {!resuming && step.back && (
                  <Button
                    variant="default"
                    disabled={busy}
                    onClick={() =>
                      step.stage === 'admin_help'
                        ? void go('back', at('add_to_enterprise'), { key: 'onboarding.app_not_added' })
                        : void go('back', index - 1)
                    }
                    data-testid="onboarding-back"
                  >
                    {t('onboarding.back')}
                  </Button>
                )}
              </Group>
              <Group gap="sm">
                {resuming ? (
                  <Button loading={busy} onClick={() => void resume()} data-testid="onboarding-resume">
                    {t('onboarding.resume.action')}
                  </Button>
                ) : (
                  <>
                    {step.stage === 'add_to_enterprise' && (
                      <Button
                        variant="subtle"
                        disabled={busy}
                        onClick={() => void go('next', at('admin_help'))}
                        data-testid="onboarding-not-admin"
                      >
                        {t('onboarding.add.not_admin')}
                      </Button>
                    )}
                    {step.stage === 'admin_help' && (
                      <Button variant="light" loading={busy} onClick={() => void explore()} data-testid="onboarding-explore">
                        {t('onboarding.help.explore')}
                      </Button>
                    )}
                    {step.skip && (
                      <Button
                        variant="subtle"
                        disabled={busy}
                        onClick={() => void go('skip', index + 1)}
                        data-testid="onboarding-skip"
                      >
                        {t('onboarding.skip')}
                      </Button>
                    )}
                    {step.forward &&
                      (step.stage === 'all_set' ? (
                        <Button loading={busy} onClick={() => void finish()} data-testid="onboarding-finish">
                          {t('onboarding.finish.action')}
                        </Button>
                      ) : (
                        <Button
                          loading={busy}
                          onClick={() =>
                            step.stage === 'add_to_enterprise' ? void verifyThenNext() : void go('next', index + 1)
                          }
                          data-testid="onboarding-next"
                        >
                          {t(step.stage === 'welcome' ? 'onboarding.welcome.action' : 'onboarding.next')}
                        </Button>
                      ))}
                  </>
                )}
              </Group>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ md: 5 }} visibleFrom="md">
          <Media stage={stage} />
        </Grid.Col>
      </Grid>
    </Card>
  );
}

/** The progress indicator: one 85 px segment per step between welcome and finish (spec §2, §9). */
function Progress({ total, reached }: { total: number; reached: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Group gap={6} aria-hidden>
        {Array.from({ length: total }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments are positions
          <Box key={i} w={85} h={6} style={{ borderRadius: 3 }} bg={i < reached ? 'blue.6' : 'gray.3'} />
        ))}
      </Group>
      <Text size="xs" c="dimmed" data-testid="onboarding-progress">
        {t('onboarding.progress', { current: reached, total })}
      </Text>
    </Stack>
  );
}

function StepText({ stage }: { stage: string }) {
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
function Media({ stage }: { stage: string }) {
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

/** Step 1 with a cloud: add the product to the cloud's enterprise apps through the consent popup. */
function AddToEnterprise({
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
      async () => (await call('onboardingConsentUrl', { cloud })).url,
      () => void report('initiated'),
    );
    if (result.status === 'success') {
      try {
        await call('onboardingVerifyUser', {});
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

/** 1.1: a link the cloud's administrator opens to add the product, with a copy button. */
function AdminHelp({ cloud }: { cloud: 'google_drive' | 'one_drive' }) {
  const { t } = useTranslation();
  const slug = useSession()?.team_slug ?? '';
  const link = useQuery({
    queryKey: ['onboarding', slug, 'help-link', cloud],
    queryFn: async () => (await call('onboardingConsentUrl', { cloud })).url,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
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

/** Setup: the app for this computer's system, 'Other Platforms', and (without a cloud) the master password. */
function Setup({ withCloud }: { withCloud: boolean }) {
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
