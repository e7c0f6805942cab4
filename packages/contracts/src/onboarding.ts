import { z } from 'zod';
import { RULES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';
import {
  ADDED_TO_ENTERPRISE_APPS,
  DOWNLOAD_IDS,
  ONBOARDING_CLOUDS,
  ONBOARDING_STAGES,
  WIZARD_ACTIONS,
  WIZARD_EVENT_STATES,
  WIZARD_EVENTS,
} from './onboarding-constants.ts';
import { OnboardingWizard } from './team.ts';

export * from './onboarding-constants.ts';

/** Spec §3 Onboarding state: what the wizard keeps in the team's state. */
export const WizardStateInput = z.object({
  show: z.boolean(),
  enable_console: z.boolean(),
  resume_notification: z.boolean(),
  stage: z.enum(ONBOARDING_STAGES),
});

export const onboardingUpdateEndpoint = defineEndpoint({
  name: 'onboardingUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v2/onboarding/wizard/update/',
  auth: 'session',
  access: RULES.onboarding,
  errors: ['not_allowed'],
  summary: "Saves the wizard's stage and flags in the team's onboarding state (only while the wizard is not finished).",
  input: z.object({ state: WizardStateInput }),
  output: OnboardingWizard,
});

export const onboardingActionEndpoint = defineEndpoint({
  name: 'onboardingAction',
  program: 'server',
  method: 'POST',
  path: '/api/v2/onboarding/wizard/action/',
  auth: 'session',
  access: RULES.onboarding,
  errors: ['not_allowed'],
  summary: 'Records one wizard event (each Next, Skip or Back, and the add-to-enterprise outcome).',
  input: z.object({
    stage: z.enum(ONBOARDING_STAGES),
    action: z.enum(WIZARD_ACTIONS),
    event: z.enum(WIZARD_EVENTS),
    state: z.enum(WIZARD_EVENT_STATES),
    payload: z
      .object({
        os: z.string().max(40).optional(),
        code: z.string().max(60).optional(),
      })
      .strict()
      .optional(),
  }),
  output: z.object({ code: z.literal('recorded') }),
});

export const onboardingConsentUrlEndpoint = defineEndpoint({
  name: 'onboardingConsentUrl',
  program: 'server',
  method: 'POST',
  path: '/organization/auth/verify/url/',
  auth: 'session',
  access: RULES.onboarding,
  errors: ['not_allowed', 'url_fetch_failed'],
  summary: "The cloud's admin-consent address that adds the product to the team's enterprise apps (single-use state).",
  input: z.object({ cloud: z.enum(ONBOARDING_CLOUDS) }),
  output: z.object({ url: z.string().url() }),
});

export const onboardingVerifyUserEndpoint = defineEndpoint({
  name: 'onboardingVerifyUser',
  program: 'server',
  method: 'POST',
  path: '/api/v2/onboarding/wizard/verify/user/',
  auth: 'session',
  access: RULES.onboarding,
  errors: ['app_addition_not_verified'],
  summary: "Whether the cloud's consent came back for this team (the product is in its enterprise apps).",
  input: z.object({}).strict(),
  output: z.object({ code: z.literal('verified'), [ADDED_TO_ENTERPRISE_APPS]: z.literal(true) }),
});

export const onboardingCloudConnectionEndpoint = defineEndpoint({
  name: 'onboardingCloudConnection',
  program: 'server',
  method: 'POST',
  path: '/api/v2/onboarding/wizard/cloud/connection/',
  auth: 'session',
  access: RULES.onboarding,
  errors: ['cloud_not_connected'],
  summary: "The team's business cloud and whether the product was added to its enterprise apps.",
  input: z.object({}).strict(),
  output: z.object({ code: z.literal('connected'), cloud: z.enum(ONBOARDING_CLOUDS) }),
});

export const productDownloadEndpoint = defineEndpoint({
  name: 'productDownload',
  program: 'server',
  method: 'POST',
  path: '/api/v1/onboarding/wizard/product/download/',
  auth: 'session',
  access: RULES.onboarding,
  summary: 'Where to download the product for an operating system (`all`: the public downloads page).',
  input: z.object({ id: z.enum(DOWNLOAD_IDS) }),
  output: z.object({ location: z.string().url() }),
});
