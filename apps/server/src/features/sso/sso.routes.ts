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
import type { Db, Router } from '@latchkey/runtime';
import { type Caller, type Guard, requireCaller } from '../../http/caller.ts';
import type { Approvals } from '../approvals/index.ts';
import { createSsoService, type SsoDeps, type SsoService } from './sso.service.ts';

type ConnectorInput = { config_uuid: string } & Record<string, unknown>;

/** One connector call by its endpoint's name: what an approved `sso.connector` request runs. */
function connectorCall(sso: SsoService, call: string, caller: Caller, input: ConnectorInput) {
  switch (call) {
    case ssoConfigCreateEndpoint.name:
      return sso.create(caller, input as unknown as Parameters<SsoService['create']>[1]);
    case ssoConfigUpdateEndpoint.name:
      return sso.update(caller, input as unknown as Parameters<SsoService['update']>[1]);
    case ssoConfigActivateEndpoint.name:
      return sso.setActive(caller, input.config_uuid, true);
    case ssoConfigDeactivateEndpoint.name:
      return sso.setActive(caller, input.config_uuid, false);
    default:
      return sso.remove(caller, input.config_uuid);
  }
}

const summaryOf = (input: unknown) => {
  const i = input as { config_name?: string; config_uuid?: string };
  return i.config_name ?? i.config_uuid ?? '';
};

/** SAML single sign-on: the ten connector calls of spec §7, the SAML request, the tester and the ACS. */
export function ssoRoutes(router: Router, guard: Guard, deps: SsoDeps, approvals: Approvals) {
  const sso = createSsoService(deps);
  const inDb = (q: Db) => (q === deps.db ? sso : createSsoService({ ...deps, db: q }));
  // Under four-eyes approval: the connectors, switching enforcement off, and who is excluded from it.
  const connector = <E extends Parameters<typeof approvals.approvable>[0]>(endpoint: E, verb: string) =>
    approvals.approvable(endpoint, 'sso.connector', {
      // One dispatcher for the five calls: each returns its own endpoint's answer.
      run: (input, caller, q) => connectorCall(inDb(q), endpoint.name, caller, input as never) as never,
      describe: async (input) => ({ summary: `${verb} an SSO connector (${summaryOf(input)})` }),
    });
  const create = connector(ssoConfigCreateEndpoint, 'Create');
  const update = connector(ssoConfigUpdateEndpoint, 'Change');
  const activate = connector(ssoConfigActivateEndpoint, 'Activate');
  const deactivate = connector(ssoConfigDeactivateEndpoint, 'Deactivate');
  const remove = connector(ssoConfigDeleteEndpoint, 'Delete');
  const enforce = approvals.approvable(ssoPolicyUpdateEndpoint, 'sso.require_off', {
    run: (input, caller, q) => inDb(q).setEnforce(caller, input.enforce_sso),
    describe: async () => ({
      summary: 'Switch "Require SSO" off',
      changes: [{ key: 'enforce_sso', kind: 'changed', before: true, after: false }],
    }),
  });
  const excluded = approvals.approvable(ssoExcludedAdminsEndpoint, 'sso.exclusions', {
    run: (input, caller, q) => inDb(q).excluded(caller, input.add_excluded_admins, input.remove_excluded_admins),
    describe: async (input) => ({
      summary: 'Change the admins excluded from SSO enforcement',
      changes: [
        ...input.add_excluded_admins.map((e) => ({ key: e, kind: 'added' as const, before: null, after: 'excluded' })),
        ...input.remove_excluded_admins.map((e) => ({ key: e, kind: 'removed' as const, before: 'excluded', after: null })),
      ],
    }),
  });
  router.handle(ssoConfigsEndpoint, guard, ({ ctx }) => sso.list(requireCaller(ctx)));
  router.handle(ssoConfigCreateEndpoint, guard, ({ ctx, input }) => create(requireCaller(ctx), input));
  router.handle(ssoConfigUpdateEndpoint, guard, ({ ctx, input }) => update(requireCaller(ctx), input));
  router.handle(ssoConfigActivateEndpoint, guard, ({ ctx, input }) => activate(requireCaller(ctx), input));
  router.handle(ssoConfigDeactivateEndpoint, guard, ({ ctx, input }) => deactivate(requireCaller(ctx), input));
  router.handle(ssoConfigDeleteEndpoint, guard, ({ ctx, input }) => remove(requireCaller(ctx), input));
  router.handle(ssoPolicyEndpoint, guard, ({ ctx }) => sso.policy(requireCaller(ctx)));
  // Only switching enforcement off is approvable: switching it on tightens sign-in.
  router.handle(ssoPolicyUpdateEndpoint, guard, ({ ctx, input }) =>
    enforce(requireCaller(ctx), input, { onlyIf: async () => !input.enforce_sso }),
  );
  router.handle(ssoExcludedAdminsEndpoint, guard, ({ ctx, input }) => excluded(requireCaller(ctx), input));
  router.handle(ssoStatusEndpoint, guard, ({ ctx, input }) => sso.status(requireCaller(ctx), input.saml_request_id));
  router.handle(ssoTestStartEndpoint, guard, ({ ctx, input }) => sso.testStart(requireCaller(ctx), input.config_uuid));
  router.handle(ssoStartEndpoint, guard, ({ input, request }) => sso.start(input, request.ip));
  // A browser's form post from the identity provider: answered with a redirect to the console's sso page.
  router.handle(ssoAcsEndpoint, guard, async ({ input, reply, request }) => {
    await reply.redirect(await sso.acs(input.SAMLResponse, request.ip), 303);
    return {};
  });
}
