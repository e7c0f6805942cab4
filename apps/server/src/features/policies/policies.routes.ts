import {
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
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import { createPoliciesService } from './policies.service.ts';

export const POLICIES_ENDPOINTS = [
  policyTeamEndpoint,
  policyTeamUpdateEndpoint,
  policyGroupsEndpoint,
  policyGroupEndpoint,
  policyGroupUpdateEndpoint,
  policyHistoryEndpoint,
  policyHistoryDiffEndpoint,
  policyHistoryRestoreEndpoint,
  policyImpactEndpoint,
  policyEffectiveEndpoint,
];

/** Team and group policies, their history and the effective policy; access rules come from each contract. */
export function policiesRoutes(app: FastifyInstance, guard: Guard, db: Db) {
  const policies = createPoliciesService(db);
  registerEndpoint(app, policyTeamEndpoint, guard, ({ ctx }) => policies.team(requireCaller(ctx)));
  registerEndpoint(app, policyTeamUpdateEndpoint, guard, ({ ctx, input }) =>
    policies.updateTeam(requireCaller(ctx), input.policy_json),
  );
  registerEndpoint(app, policyGroupsEndpoint, guard, ({ ctx }) => policies.groups(requireCaller(ctx)));
  registerEndpoint(app, policyGroupEndpoint, guard, ({ ctx, input }) => policies.group(requireCaller(ctx), input.group_id));
  registerEndpoint(app, policyGroupUpdateEndpoint, guard, ({ ctx, input }) => policies.updateGroup(requireCaller(ctx), input));
  registerEndpoint(app, policyHistoryEndpoint, guard, ({ ctx, input }) =>
    policies.history(requireCaller(ctx), input.page, input.page_size),
  );
  registerEndpoint(app, policyHistoryDiffEndpoint, guard, ({ ctx, input }) => policies.historyDiff(requireCaller(ctx), input.id));
  registerEndpoint(app, policyHistoryRestoreEndpoint, guard, ({ ctx, input }) => policies.restore(requireCaller(ctx), input.id));
  registerEndpoint(app, policyImpactEndpoint, guard, ({ ctx, input }) => policies.impact(requireCaller(ctx), input));
  registerEndpoint(app, policyEffectiveEndpoint, guard, ({ ctx, input }) => policies.effective(requireCaller(ctx), input.email));
}
