import {
  ADDED_TO_ENTERPRISE_APPS,
  hasOnboardingCloud,
  type Team,
  type WizardAction,
  type WizardStep,
  wizardSteps,
} from '@latchkey/contracts/client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { SOMETHING_WENT_WRONG } from '../../../lib/api-error.ts';
import { registerBeforeLogout } from '../../../lib/before-logout.ts';
import { useConsoleContext } from '../../../lib/console-context.ts';
import { useTeamSlug } from '../../../lib/team-slug.ts';
import { teamKeys } from '../../team/index.ts';
import { checkCloudConnection, postWizardEvent, saveWizardState, useWizardUpdate } from '../api.ts';
import { stateOnLogout, stepIndexOf } from '../flow.ts';
import { codeOf, type Problem, problemOf } from './problem.ts';

/** The wizard's place and moves: each move posts its event, saves the stage, then shows the step (spec §4). */
export function useWizardFlow() {
  const { team } = useConsoleContext();
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const slug = useTeamSlug();
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
        const wizard = await saveWizardState({ ...stateOnLogout(s), resume_notification: false });
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
      await checkCloudConnection();
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

  /** The team's cached onboarding state is read again after the cloud lists the product. */
  const onAdded = () => void client.invalidateQueries({ queryKey: teamKeys.team(slug) });

  return {
    steps,
    step,
    index,
    at,
    resuming,
    problem,
    setProblem,
    busy,
    cloud,
    added,
    onAdded,
    go,
    resume,
    finish,
    explore,
    verifyThenNext,
  };
}

/** What the wizard's buttons and step panels get from the flow. */
export type WizardFlow = ReturnType<typeof useWizardFlow>;
