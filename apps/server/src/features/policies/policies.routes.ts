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
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import { createAuditPolicyService } from './audit-policy.service.ts';
import { createPoliciesService } from './policies.service.ts';

/** Team and group policies, their history and the effective policy; access rules come from each contract. */
export function policiesRoutes(router: Router, guard: Guard, db: Db) {
  const policies = createPoliciesService(db);
  router.handle(policyTeamEndpoint, guard, ({ ctx }) => policies.team(requireCaller(ctx)));
  router.handle(policyTeamUpdateEndpoint, guard, ({ ctx, input }) => policies.updateTeam(requireCaller(ctx), input.policy_json));
  router.handle(policyGroupsEndpoint, guard, ({ ctx }) => policies.groups(requireCaller(ctx)));
  router.handle(policyGroupEndpoint, guard, ({ ctx, input }) => policies.group(requireCaller(ctx), input.group_id));
  router.handle(policyGroupUpdateEndpoint, guard, ({ ctx, input }) => policies.updateGroup(requireCaller(ctx), input));
  router.handle(policyHistoryEndpoint, guard, ({ ctx, input }) =>
    policies.history(requireCaller(ctx), input.page, input.page_size),
  );
  router.handle(policyHistoryDiffEndpoint, guard, ({ ctx, input }) => policies.historyDiff(requireCaller(ctx), input.id));
  router.handle(policyHistoryRestoreEndpoint, guard, ({ ctx, input }) => policies.restore(requireCaller(ctx), input.id));
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
