import { Alert, Box, Card, Grid, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Icon } from '../../components/Icon.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { progressAt } from './flow.ts';
import { AddToEnterprise } from './wizard/AddToEnterprise.tsx';
import { AdminHelp } from './wizard/AdminHelp.tsx';
import { Setup } from './wizard/Setup.tsx';
import { Media, ProblemAlert, Progress, StepText } from './wizard/StepPanels.tsx';
import { useWizardFlow } from './wizard/use-wizard-flow.ts';
import { WizardActions } from './wizard/WizardActions.tsx';

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

/** The wizard's card: the step on the left, its picture on the right (md and wider). */
function Wizard() {
  const flow = useWizardFlow();
  const { step, index, resuming, problem, cloud } = flow;
  const stage = resuming ? 'resume' : step.stage;
  const progress = progressAt(flow.steps, index);
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
              <Progress
                total={progress.total}
                reached={resuming ? 0 : progress.reached}
                current={resuming ? null : progress.current}
              />
              {problem && <ProblemAlert problem={problem} />}
              {resuming ? (
                <StepText stage="resume" />
              ) : step.stage === 'add_to_enterprise' && cloud ? (
                <AddToEnterprise cloud={cloud} added={flow.added} onProblem={flow.setProblem} onAdded={flow.onAdded} />
              ) : step.stage === 'admin_help' && cloud ? (
                <AdminHelp cloud={cloud} />
              ) : step.stage === 'setup' ? (
                <Setup withCloud={cloud !== null} />
              ) : (
                <StepText stage={step.stage} />
              )}
            </Stack>
            <WizardActions flow={flow} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ md: 5 }} visibleFrom="md">
          <Media stage={stage} />
        </Grid.Col>
      </Grid>
    </Card>
  );
}
