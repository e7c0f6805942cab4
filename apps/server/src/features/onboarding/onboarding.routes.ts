import {
  onboardingActionEndpoint,
  onboardingCloudConnectionEndpoint,
  onboardingConsentUrlEndpoint,
  onboardingUpdateEndpoint,
  onboardingVerifyUserEndpoint,
  productDownloadEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/caller.ts';
import { CONSENT_CALLBACK_PATH, CONSENT_SCRIPT_PATH, STAND_IN_PATH } from './consent.ts';
import { consentPage, consentScript, standInPage } from './consent-pages.ts';
import type { OnboardingService } from './onboarding.service.ts';

/** The pages of the consent popup: not calls, so outside the OpenAPI document. */
export const CONSENT_PAGES = [STAND_IN_PATH, CONSENT_CALLBACK_PATH, CONSENT_SCRIPT_PATH] as const;

export function onboardingRoutes(
  app: FastifyInstance,
  router: Router,
  guard: Guard,
  onboarding: OnboardingService,
  options: { standIn: boolean },
) {
  router.handle(onboardingUpdateEndpoint, guard, ({ ctx, input }) => onboarding.update(requireCaller(ctx), input));
  router.handle(onboardingActionEndpoint, guard, ({ ctx, input }) => onboarding.action(requireCaller(ctx), input));
  router.handle(onboardingConsentUrlEndpoint, guard, ({ ctx, input }) => onboarding.consentUrl(requireCaller(ctx), input.cloud));
  router.handle(onboardingVerifyUserEndpoint, guard, ({ ctx }) => onboarding.verifyUser(requireCaller(ctx)));
  router.handle(onboardingCloudConnectionEndpoint, guard, ({ ctx }) => onboarding.cloudConnection(requireCaller(ctx)));
  router.handle(productDownloadEndpoint, guard, ({ input }) => onboarding.download(input.id));

  const html = (body: string) => ({ 'content-type': 'text/html; charset=utf-8', body });
  /** The query's single values: a key given twice (an array) or with brackets (an object) is no answer a cloud sends, so absent. */
  const singleValues = (query: unknown): Record<string, string> =>
    Object.fromEntries(Object.entries(query ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  // The cloud sends the admin back here, in the popup; the page tells the console and closes.
  app.get(CONSENT_CALLBACK_PATH, async (request, reply) => {
    const outcome = await onboarding.consentReturned(singleValues(request.query));
    const page = html(consentPage(outcome));
    // The popup came from the cloud's pages: it must stay linked to the console that opened it.
    return reply.header('cross-origin-opener-policy', 'unsafe-none').header('content-type', page['content-type']).send(page.body);
  });
  app.get(CONSENT_SCRIPT_PATH, async (_request, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').send(consentScript()),
  );
  // The stand-in consent screen (demo and tests): never served in production.
  app.get(STAND_IN_PATH, async (request, reply) => {
    if (!options.standIn) return reply.code(404).send({ code: 'not_found', description: 'No such page.' });
    const page = html(standInPage(singleValues(request.query).state ?? ''));
    return reply.header('cross-origin-opener-policy', 'unsafe-none').header('content-type', page['content-type']).send(page.body);
  });
}
