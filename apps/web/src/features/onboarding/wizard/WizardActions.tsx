import { Button, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.ts';
import type { WizardFlow } from './use-wizard-flow.ts';

/** The wizard's buttons: back on the left; resume, not-admin, explore, skip and next or finish on the right. */
export function WizardActions({ flow }: { flow: WizardFlow }) {
  const { t } = useTranslation();
  const { step, index, at, resuming, busy, go, resume, finish, explore, verifyThenNext } = flow;
  return (
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
              <Button variant="subtle" disabled={busy} onClick={() => void go('skip', index + 1)} data-testid="onboarding-skip">
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
                  onClick={() => (step.stage === 'add_to_enterprise' ? void verifyThenNext() : void go('next', index + 1))}
                  data-testid="onboarding-next"
                >
                  {t(step.stage === 'welcome' ? 'onboarding.welcome.action' : 'onboarding.next')}
                </Button>
              ))}
          </>
        )}
      </Group>
    </Group>
  );
}
