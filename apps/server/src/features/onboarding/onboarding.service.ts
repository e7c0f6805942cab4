import { createHash, randomBytes } from 'node:crypto';
import {
  ADDED_TO_ENTERPRISE_APPS,
  type DownloadId,
  type EndpointArgs,
  hasOnboardingCloud,
  type OnboardingCloud,
  type onboardingActionEndpoint,
  type onboardingUpdateEndpoint,
  wizardSteps,
} from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { plainDetail, recordEvent } from '../eventlogs/index.ts';
import { CONSENT_CALLBACK_PATH, type ConsentProviders } from './consent.ts';
import { onboardingRepository as repo, type WizardRow } from './onboarding.repository.ts';

/** A consent round trip must come back within this long. */
const CONSENT_TTL_MINUTES = 15;

const hashState = (state: string) => createHash('sha256').update(state).digest('base64url');

/** The wizard is in progress: shown and the console not yet enabled (spec §4). */
const inProgress = (w: WizardRow | undefined): w is WizardRow => Boolean(w?.show_wizard && !w.enable_console);

const notAllowed = () =>
  new AppError('not_allowed', 'The onboarding wizard is finished for this team.', 409).shows('onboarding.error.finished');

interface OnboardingOptions {
  providers: ConsentProviders;
  /** Where the cloud sends the admin back (the console's public address), or null when unknown. */
  callbackUrl: () => string | null;
  downloadsUrl: string;
  downloadLocations: Record<string, string>;
}

export function createOnboardingService(db: Db, options: OnboardingOptions) {
  const wizardOf = async (caller: Caller) => {
    const wizard = await repo.wizard(db, caller.team.id);
    if (!inProgress(wizard)) throw notAllowed();
    return wizard;
  };

  return {
    /** Saves the stage and flags; the stage must be one of the team's steps (spec §4). */
    async update(caller: Caller, input: EndpointArgs<typeof onboardingUpdateEndpoint>) {
      const { state } = input;
      const stages = wizardSteps(caller.team.business_cloud).map((s) => s.stage as string);
      if (state.stage !== 'resume' && !stages.includes(state.stage)) {
        throw new AppError('invalid_input', `This team's wizard has no ${state.stage} step.`, 400).shows('errors.invalid_value');
      }
      return db.transaction(async (tx) => {
        const current = await repo.lockWizard(tx, caller.team.id);
        if (!inProgress(current)) throw notAllowed();
        const next: WizardRow = {
          show_wizard: state.show,
          enable_console: state.enable_console,
          resume_notification: state.resume_notification,
          state: { ...current.state, stage: state.stage },
        };
        await repo.saveWizard(tx, caller.team.id, next);
        return next;
      });
    },

    async action(caller: Caller, input: EndpointArgs<typeof onboardingActionEndpoint>) {
      await wizardOf(caller);
      await db.transaction(async (tx) => {
        await repo.recordEvent(tx, {
          teamId: caller.team.id,
          userId: caller.userId,
          stage: input.stage,
          action: input.action,
          event: input.event,
          state: input.state,
          payload: input.payload ?? {},
        });
        // The team's event log has it too, with the request's IP and device.
        await recordEvent(tx, {
          teamId: caller.team.id,
          actor: caller.email,
          activity: `onboarding.${input.action}`,
          component: 'onboarding',
          target: input.stage,
          outcome: input.state === 'failed' ? 'failure' : 'success',
          detail: { event: input.event, state: input.state, ...plainDetail(input.payload) },
        });
      });
      return { code: 'recorded' as const };
    },

    /** Starts one admin-consent round trip: a single-use state, kept only as its hash. */
    async consentUrl(caller: Caller, cloud: OnboardingCloud) {
      await wizardOf(caller);
      if (caller.team.business_cloud !== cloud) {
        throw new AppError('not_allowed', `This team's cloud is not ${cloud}.`, 409).shows('errors.forbidden');
      }
      const provider = options.providers[cloud];
      const callback = options.callbackUrl();
      if (!provider || !callback) {
        throw new AppError('url_fetch_failed', 'No consent app is configured for this cloud.', 502).shows(
          'onboarding.error.url_fetch_failed',
        );
      }
      const state = randomBytes(32).toString('base64url');
      await repo.createConsent(db, {
        stateHash: hashState(state),
        teamId: caller.team.id,
        userId: caller.userId,
        cloud,
        provider: provider.name,
        ttlMinutes: CONSENT_TTL_MINUTES,
      });
      return { url: provider.consentUrl({ state, redirectUri: `${callback}${CONSENT_CALLBACK_PATH}` }) };
    },

    /**
     * The cloud's answer (the consent callback): spends the state once; a grant marks the product
     * added to the team's enterprise apps. Never throws: the popup always gets an outcome.
     */
    async consentReturned(query: Record<string, string | undefined>): Promise<{ status: 'success' | 'failed'; code?: string }> {
      const state = query.state;
      if (!state || state.length > 200) return { status: 'failed', code: 'process_failed' };
      const hash = hashState(state);
      return db.transaction(async (tx) => {
        const consent = await repo.lockConsent(tx, hash);
        if (!consent || consent.used || consent.expired || !hasOnboardingCloud(consent.cloud)) {
          return { status: 'failed' as const, code: 'process_failed' };
        }
        const provider = options.providers[consent.cloud];
        const outcome =
          provider?.name === consent.provider ? provider.outcome(query) : { granted: false as const, reason: 'provider_changed' };
        await repo.spendConsent(tx, hash, outcome.granted ? 'granted' : outcome.reason.slice(0, 60));
        if (!outcome.granted) return { status: 'failed' as const, code: 'app_not_activated' };
        const wizard = await repo.lockWizard(tx, consent.team_id);
        if (!wizard) return { status: 'failed' as const, code: 'process_failed' };
        await repo.saveWizard(tx, consent.team_id, { ...wizard, state: { ...wizard.state, [ADDED_TO_ENTERPRISE_APPS]: true } });
        return { status: 'success' as const };
      });
    },

    async verifyUser(caller: Caller) {
      const wizard = await repo.wizard(db, caller.team.id);
      if (wizard?.state[ADDED_TO_ENTERPRISE_APPS] !== true) {
        throw new AppError('app_addition_not_verified', 'The product is not in the enterprise apps yet.', 409).shows(
          'onboarding.error.app_addition_not_verified',
        );
      }
      return { code: 'verified' as const, [ADDED_TO_ENTERPRISE_APPS]: true as const };
    },

    async cloudConnection(caller: Caller) {
      const cloud = caller.team.business_cloud;
      const wizard = await repo.wizard(db, caller.team.id);
      if (!hasOnboardingCloud(cloud) || wizard?.state[ADDED_TO_ENTERPRISE_APPS] !== true) {
        throw new AppError('cloud_not_connected', 'The cloud storage is not connected yet.', 409).shows(
          'onboarding.error.cloud_not_connected',
        );
      }
      return { code: 'connected' as const, cloud };
    },

    async download(id: DownloadId) {
      const base = options.downloadsUrl.endsWith('/') ? options.downloadsUrl : `${options.downloadsUrl}/`;
      if (id === 'all') return { location: options.downloadsUrl };
      return { location: options.downloadLocations[id] ?? new URL(id, base).toString() };
    },

    /** Tests and the event store's author read the recorded events. */
    events: (teamId: string) => repo.events(db, teamId),
  };
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
