/**
 * Onboarding wizard (spec §2 Onboarding wizard, §3 Onboarding state, §4 Onboarding, §9): plain data
 * shared by the console's wizard and the server's checks.
 */

/** The product's name in `{product}_added_to_enterprise_apps`. */
export const PRODUCT = 'latchkey';
export const ADDED_TO_ENTERPRISE_APPS = `${PRODUCT}_added_to_enterprise_apps` as const;

/** Stages kept in the team's onboarding state (spec §3). */
export const ONBOARDING_STAGES = ['welcome', 'add_to_enterprise', 'admin_help', 'setup', 'resume', 'all_set'] as const;
export type OnboardingStage = (typeof ONBOARDING_STAGES)[number];

/** What a wizard event reports (spec §4: each Next, Skip or Back posts one). */
export const WIZARD_ACTIONS = [
  'next',
  'skip',
  'back',
  'add_to_enterprise',
  'resume',
  'explore_console',
  'download',
  'logout',
] as const;
export type WizardAction = (typeof WIZARD_ACTIONS)[number];
export const WIZARD_EVENTS = ['click', 'initiated', 'success', 'failed'] as const;
export const WIZARD_EVENT_STATES = ['success', 'failed'] as const;

/** Clouds that have an enterprise-apps step. */
export const ONBOARDING_CLOUDS = ['google_drive', 'one_drive'] as const;
export type OnboardingCloud = (typeof ONBOARDING_CLOUDS)[number];

export interface WizardStep {
  /** The spec's step number: 0, 1, 1.1, 2, 3 with a cloud; 0, 1, 2 without. */
  number: string;
  stage: OnboardingStage;
  back: boolean;
  forward: boolean;
  skip: boolean;
}

/** Spec §4 Onboarding with a cloud: 1.1 can go back (to 1, showing 'app not added') but not forward. */
export const STEPS_WITH_CLOUD: readonly WizardStep[] = [
  { number: '0', stage: 'welcome', back: false, forward: true, skip: false },
  { number: '1', stage: 'add_to_enterprise', back: true, forward: true, skip: false },
  { number: '1.1', stage: 'admin_help', back: true, forward: false, skip: false },
  { number: '2', stage: 'setup', back: true, forward: true, skip: true },
  { number: '3', stage: 'all_set', back: false, forward: true, skip: false },
];

/** Spec §4 Onboarding without a cloud. */
export const STEPS_WITHOUT_CLOUD: readonly WizardStep[] = [
  { number: '0', stage: 'welcome', back: false, forward: true, skip: false },
  { number: '1', stage: 'setup', back: true, forward: true, skip: true },
  { number: '2', stage: 'all_set', back: false, forward: true, skip: false },
];

export const hasOnboardingCloud = (cloud: string): cloud is OnboardingCloud =>
  (ONBOARDING_CLOUDS as readonly string[]).includes(cloud);

export const wizardSteps = (cloud: string): readonly WizardStep[] =>
  hasOnboardingCloud(cloud) ? STEPS_WITH_CLOUD : STEPS_WITHOUT_CLOUD;

/**
 * Spec §2, §9: the progress indicator counts the wizard's steps minus two (welcome and finish). A
 * sub-step (1.1, the admin help) is part of its step, not one more: with a cloud the wizard has 4
 * steps (0, 1, 2, 3), so the admin walks 2; without one, 1.
 */
export const progressTotal = (steps: readonly WizardStep[]): number => steps.filter((s) => !isSubStep(s)).length - 2;

/** A step numbered below a whole step (1.1 under 1). */
export const isSubStep = (step: WizardStep): boolean => step.number.includes('.');

/** Spec §9: the add-to-enterprise popup and how often its closing is checked. */
export const CONSENT_POPUP = { width: 600, height: 500, closedCheckMs: 100 } as const;
/** The message type the consent popup posts to the console. */
export const CONSENT_MESSAGE = 'latchkey:consent' as const;
/** Spec §9: the copied tooltip. */
export const COPIED_MS = 2000;

/** Download ids of `/api/v1/onboarding/wizard/product/download/`; `all` is the public downloads page. */
export const DOWNLOAD_IDS = ['windows', 'macos', 'linux', 'ios', 'android', 'all'] as const;
export type DownloadId = (typeof DOWNLOAD_IDS)[number];

/** Spec §8 onboarding codes and the message each shows. */
export const ONBOARDING_ERROR_KEYS = {
  popup_blocked: 'onboarding.error.popups_blocked',
  browser_popups_blocked: 'onboarding.error.popups_blocked',
  popup_closed: 'onboarding.error.popup_closed',
  url_fetch_failed: 'onboarding.error.url_fetch_failed',
  process_failed: 'onboarding.error.process_failed',
  cloud_not_connected: 'onboarding.error.cloud_not_connected',
  app_not_activated: 'onboarding.error.app_not_activated',
  app_addition_not_verified: 'onboarding.error.app_addition_not_verified',
  link_fetch_error: 'Something went wrong',
} as const;
export type OnboardingErrorCode = keyof typeof ONBOARDING_ERROR_KEYS;

/** Spec §3 Family benefit. */
export const BENEFIT_GRANT_TYPES = ['none', 'all', 'groups'] as const;
export type BenefitGrantType = (typeof BENEFIT_GRANT_TYPES)[number];
