import type { ApprovalAction, ApprovalChange, ApprovalPolicy, Endpoint, EndpointArgs } from '@latchkey/contracts';
import type { Db, Queryable } from '@latchkey/runtime';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.ts';

/**
 * How a feature puts one of its calls under four-eyes approval. The feature declares, once, how
 * the call runs; it then calls the returned function instead of its service:
 *
 * ```ts
 * const remove = approvals.approvable(adminRemoveEndpoint, 'admins.remove', {
 *   run: (input, caller, db) => createAdminsService(db, deps).remove(caller, input.email),
 * });
 * router.handle(adminRemoveEndpoint, guard, ({ ctx, input }) => remove(requireCaller(ctx), input));
 * ```
 *
 * With the team's policy off (or the class not in it) `run` runs at once with the server's db:
 * the call answers exactly as without approvals. Otherwise the call answers 202
 * `approval_required` and changes nothing; once approved, `run` runs with the stored input, as
 * the requester, with a `db` whose first transaction also closes the request (applied): the
 * action's writes and the closing commit together, once. So `run` must write through `db`'s
 * transaction, as the services do.
 */
export interface ApprovableDef<I, O> {
  run(input: I, caller: Caller, db: Db): Promise<O>;
  /** What the request shows approvers: an English line, and each field's before → after. */
  describe?(input: I, caller: Caller, q: Queryable): Promise<{ summary: string; changes?: ApprovalChange[] }>;
}

/**
 * When a call asks for approval:
 * - `policy` (default): the team's policy is on and lists the action;
 * - `when_enabled`: the policy is on, whatever it lists (removing the second-to-last super admin);
 * - `always`: whatever the policy says (just-in-time elevation, whose approval is its purpose);
 * - `never`: run at once (a change that does not relax anything, a self-elevation the policy allows).
 */
export type AskWhen = 'policy' | 'when_enabled' | 'always' | 'never';

export interface AskOptions {
  ask?: AskWhen;
  /**
   * Asked only when the policy would otherwise ask: whether this input belongs to the class at
   * all (a policy change that relaxes a rule). With the policy off it is never called.
   */
  onlyIf?: () => Promise<boolean>;
}

/** The gated call: runs, or throws `approval_required` (202) with the request's id. */
export type Approvable<E extends Endpoint> = (
  caller: Caller,
  input: EndpointArgs<E>,
  options?: AskOptions,
) => Promise<z.input<E['output']>>;

export interface Approvals {
  /** Declares a gated call (once, at start-up): the action class it belongs to and how it runs. */
  approvable<E extends Endpoint>(
    endpoint: E,
    action: ApprovalAction,
    def: ApprovableDef<EndpointArgs<E>, z.input<E['output']>>,
  ): Approvable<E>;
  /** The team's policy (the default, off, when none was set). */
  policyOf(q: Queryable, teamId: string): Promise<ApprovalPolicy>;
}
