import {
  auditPolicyEndpoint,
  policyEffectiveEndpoint,
  policyGroupEndpoint,
  policyGroupsEndpoint,
  policyGroupUpdateEndpoint,
  policyHistoryDiffEndpoint,
  policyHistoryEndpoint,
  policyHistoryRestoreEndpoint,
  policyImpactEndpoint,
  policyTeamEndpoint,
  policyTeamUpdateEndpoint,
} from '@latchkey/contracts';
import type { Db, Queryable, Router } from '@latchkey/runtime';
import { type Caller, type Guard, requireCaller } from '../../http/caller.ts';
import type { Approvals } from '../approvals/index.ts';
import { createAuditPolicyService } from './audit-policy.service.ts';
import { createPoliciesService, type PolicyChangeRequest } from './policies.service.ts';

/** Team and group policies, their history and the effective policy; access rules come from each contract. */
export function policiesRoutes(router: Router, guard: Guard, db: Db, approvals: Approvals) {
  const policies = createPoliciesService(db);
  const inDb = (q: Db) => (q === db ? policies : createPoliciesService(q));
  // Under four-eyes approval: a change that relaxes a rule for someone, and every restore.
  // Described inside the transaction that records the request: read through it (`q`), never beside it.
  const describeChange = async (change: PolicyChangeRequest, caller: Caller, q: Queryable) => {
    const relaxed = await policies.relaxedKeys(caller, change, q);
    const where = change.scope === 'team' ? 'the team policy' : 'a group policy';
    return { summary: `Relax ${where}: ${relaxed.join(', ')}`, changes: await policies.proposedChanges(caller, change, q) };
  };
  const relaxes = (caller: Caller, change: PolicyChangeRequest) => async () =>
    (await policies.relaxedKeys(caller, change)).length > 0;
  const updateTeam = approvals.approvable(policyTeamUpdateEndpoint, 'policies.relax', {
    run: (input, caller, q) => inDb(q).updateTeam(caller, input.policy_json),
    describe: (input, caller, q) => describeChange({ scope: 'team', policy_json: input.policy_json }, caller, q),
  });
  const updateGroup = approvals.approvable(policyGroupUpdateEndpoint, 'policies.relax', {
    run: (input, caller, q) => inDb(q).updateGroup(caller, input),
    describe: (input, caller, q) => describeChange({ scope: 'group', ...input }, caller, q),
  });
  const restore = approvals.approvable(policyHistoryRestoreEndpoint, 'policies.restore', {
    run: (input, caller, q) => inDb(q).restore(caller, input.id),
    describe: async (input, caller, q) => {
      const diff = await policies.historyDiff(caller, input.id, q);
      return { summary: `Restore the policy version of change ${input.id}`, changes: diff.changes };
    },
  });
  router.handle(policyTeamEndpoint, guard, ({ ctx }) => policies.team(requireCaller(ctx)));
  router.handle(policyTeamUpdateEndpoint, guard, ({ ctx, input }) => {
    const caller = requireCaller(ctx);
    return updateTeam(caller, input, { onlyIf: relaxes(caller, { scope: 'team', policy_json: input.policy_json }) });
  });
  router.handle(policyGroupsEndpoint, guard, ({ ctx }) => policies.groups(requireCaller(ctx)));
  router.handle(policyGroupEndpoint, guard, ({ ctx, input }) => policies.group(requireCaller(ctx), input.group_id));
  router.handle(policyGroupUpdateEndpoint, guard, ({ ctx, input }) => {
    const caller = requireCaller(ctx);
    return updateGroup(caller, input, { onlyIf: relaxes(caller, { scope: 'group', ...input }) });
  });
  router.handle(policyHistoryEndpoint, guard, ({ ctx, input }) =>
    policies.history(requireCaller(ctx), input.page, input.page_size),
  );
  router.handle(policyHistoryDiffEndpoint, guard, ({ ctx, input }) => policies.historyDiff(requireCaller(ctx), input.id));
  router.handle(policyHistoryRestoreEndpoint, guard, ({ ctx, input }) => restore(requireCaller(ctx), input));
  router.handle(policyImpactEndpoint, guard, ({ ctx, input }) => policies.impact(requireCaller(ctx), input));
  router.handle(policyEffectiveEndpoint, guard, ({ ctx, input }) => policies.effective(requireCaller(ctx), input.email));
}

/**
 * The audit policy the Hub's audit reads (registered after the integration calls: the OpenAPI
 * document lists calls in registration order).
 */
export function auditPolicyRoutes(router: Router, guard: Guard, db: Db) {
  const audit = createAuditPolicyService(db);
  router.handle(auditPolicyEndpoint, guard, async ({ ctx }) => audit.auditPolicy(requireCaller(ctx)));
}
