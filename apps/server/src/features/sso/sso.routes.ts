import {
  ssoAcsEndpoint,
  ssoConfigActivateEndpoint,
  ssoConfigCreateEndpoint,
  ssoConfigDeactivateEndpoint,
  ssoConfigDeleteEndpoint,
  ssoConfigsEndpoint,
  ssoConfigUpdateEndpoint,
  ssoExcludedAdminsEndpoint,
  ssoPolicyEndpoint,
  ssoPolicyUpdateEndpoint,
  ssoStartEndpoint,
  ssoStatusEndpoint,
  ssoTestStartEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { SsoService } from './sso.service.ts';

/** SAML single sign-on: the ten connector calls of spec §7, the SAML request, the tester and the ACS. */
export function ssoRoutes(router: Router, guard: Guard, sso: SsoService) {
  router.handle(ssoConfigsEndpoint, guard, ({ ctx }) => sso.list(requireCaller(ctx)));
  router.handle(ssoConfigCreateEndpoint, guard, ({ ctx, input }) => sso.create(requireCaller(ctx), input));
  router.handle(ssoConfigUpdateEndpoint, guard, ({ ctx, input }) => sso.update(requireCaller(ctx), input));
  router.handle(ssoConfigActivateEndpoint, guard, ({ ctx, input }) => sso.setActive(requireCaller(ctx), input.config_uuid, true));
  router.handle(ssoConfigDeactivateEndpoint, guard, ({ ctx, input }) =>
    sso.setActive(requireCaller(ctx), input.config_uuid, false),
  );
  router.handle(ssoConfigDeleteEndpoint, guard, ({ ctx, input }) => sso.remove(requireCaller(ctx), input.config_uuid));
  router.handle(ssoPolicyEndpoint, guard, ({ ctx }) => sso.policy(requireCaller(ctx)));
  router.handle(ssoPolicyUpdateEndpoint, guard, ({ ctx, input }) => sso.setEnforce(requireCaller(ctx), input.enforce_sso));
  router.handle(ssoExcludedAdminsEndpoint, guard, ({ ctx, input }) =>
    sso.excluded(requireCaller(ctx), input.add_excluded_admins, input.remove_excluded_admins),
  );
  router.handle(ssoStatusEndpoint, guard, ({ ctx, input }) => sso.status(requireCaller(ctx), input.saml_request_id));
  router.handle(ssoTestStartEndpoint, guard, ({ ctx, input }) => sso.testStart(requireCaller(ctx), input.config_uuid));
  router.handle(ssoStartEndpoint, guard, ({ input, request }) => sso.start(input, request.ip));
  // A browser's form post from the identity provider: answered with a redirect to the console's sso page.
  router.handle(ssoAcsEndpoint, guard, async ({ input, reply, request }) => {
    await reply.redirect(await sso.acs(input.SAMLResponse, request.ip), 303);
    return {};
  });
}
