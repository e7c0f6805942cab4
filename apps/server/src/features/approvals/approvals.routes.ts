import {
  approvalDecideEndpoint,
  approvalEndpoint,
  approvalPolicyEndpoint,
  approvalPolicyUpdateEndpoint,
  approvalsCountEndpoint,
  approvalsEndpoint,
  approvalWithdrawEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { ApprovalsRoom } from './approvals.service.ts';

/** Settings → approvals: the policy (super admin), the requests, and each person's decision. */
export function approvalsRoutes(router: Router, guard: Guard, { approvals, service }: ApprovalsRoom) {
  // Changing the policy is itself approvable: while the current policy lists approvals.policy.
  const updatePolicy = approvals.approvable(approvalPolicyUpdateEndpoint, 'approvals.policy', {
    run: (input, caller, db) => service.savePolicy(caller, input.policy, db),
    describe: async (input, caller) => {
      const before = (await service.policy(caller)).policy;
      const changes = (Object.keys(input.policy) as (keyof typeof input.policy)[])
        .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(input.policy[key]))
        .map((key) => ({ key, kind: 'changed' as const, before: before[key], after: input.policy[key] }));
      return { summary: `Change the approval policy (${changes.map((c) => c.key).join(', ') || 'no field'})`, changes };
    },
  });
  router.handle(approvalPolicyEndpoint, guard, ({ ctx }) => service.policy(requireCaller(ctx)));
  router.handle(approvalPolicyUpdateEndpoint, guard, ({ ctx, input }) => updatePolicy(requireCaller(ctx), input));
  router.handle(approvalsEndpoint, guard, ({ ctx, input }) =>
    service.list(requireCaller(ctx), input.view, input.page, input.page_size),
  );
  router.handle(approvalsCountEndpoint, guard, ({ ctx }) => service.count(requireCaller(ctx)));
  router.handle(approvalEndpoint, guard, ({ ctx, input }) => service.get(requireCaller(ctx), input.id));
  router.handle(approvalDecideEndpoint, guard, ({ ctx, input }) =>
    service.decide(requireCaller(ctx), input.id, input.decision, input.comment),
  );
  router.handle(approvalWithdrawEndpoint, guard, ({ ctx, input }) =>
    service.withdraw(requireCaller(ctx), input.id, input.comment),
  );
}
