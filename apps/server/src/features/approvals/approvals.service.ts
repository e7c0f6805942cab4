import {
  APPROVAL_ACTIONS,
  type ApprovalAction,
  type ApprovalPolicy,
  type ApprovalRequest,
  DEFAULT_APPROVAL_POLICY,
  type Endpoint,
} from '@latchkey/contracts';
import { AppError, type Db, type Jobs, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import { mailApprovers, recordApprovalEvent } from './approval-notices.ts';
import {
  APPLY_QUEUE,
  approvalRequired,
  closed,
  EXPIRY_QUEUE,
  eligibleApprovers,
  holdsScope,
  infoOf,
  notFound,
  sees,
  type TeamAdmin,
  visibleTo,
} from './approval-rules.ts';
import type { ApprovableDef, Approvals, AskWhen } from './approvals.gate.ts';
import { type DecisionRow, type RequestRow, approvalsRepository as repo } from './approvals.repository.ts';
import { closingDb, RequestNoLongerOpen } from './closing-db.ts';
import { payloadHash, plainPayload } from './payload-hash.ts';

export interface ApprovalsDeps {
  mail: MailOutbox;
  jobs: Jobs;
  consoleUrl: () => string | null;
  /** The team's administrators (the admins room's, handed in: it builds on this room). */
  teamAdmins: (q: Queryable, teamId: string) => Promise<TeamAdmin[]>;
}

interface Registered {
  endpoint: Endpoint;
  action: ApprovalAction;
  def: ApprovableDef<never, unknown>;
}

export function createApprovals(db: Db, deps: ApprovalsDeps) {
  const registry = new Map<string, Registered>();

  const policyOf = async (q: Queryable, teamId: string): Promise<ApprovalPolicy> =>
    (await repo.policy(q, teamId)) ?? DEFAULT_APPROVAL_POLICY;

  const expiry = deps.jobs.define<{ teamId: string }>(EXPIRY_QUEUE, async ({ teamId }) => void (await expireDue(teamId)), {
    retryLimit: 5,
  });
  // The operator's break-glass approval (at the command line) is applied by the server, which knows how each action runs.
  // Also the fallback of an approval whose server stopped before running it: whichever run comes first applies it.
  const applyQueue = deps.jobs.define<{ requestId: string }>(APPLY_QUEUE, async ({ requestId }) => {
    const row = await repo.lock(db, requestId);
    if (row?.status === 'approved' && row.apply === 'on_approval') await apply(row, row.requester as unknown as Caller);
  });

  /** Closes the team's (or every team's) requests past their expiry: they can never run. */
  async function expireDue(teamId?: string): Promise<number> {
    return db.transaction(async (tx) => {
      const due = await repo.lockDue(tx, teamId);
      for (const row of due) {
        if (await repo.close(tx, row.id, ['pending', 'approved'], 'expired', null)) {
          await recordApprovalEvent(tx, row, 'approval_expired', { email: 'system', type: 'system' });
        }
      }
      return due.length;
    });
  }

  /**
   * Runs an approved request's action through the same service code as the direct call, as `caller`,
   * closing the request (applied) in the action's own transaction: it runs once. A refusal of the
   * action (what it changes changed meanwhile) leaves nothing of it: the request closes as failed.
   * Returns the action's answer, or undefined when another run had closed the request first.
   */
  async function apply(row: RequestRow, caller: Caller): Promise<{ result: unknown } | undefined> {
    const registered = registry.get(row.call);
    if (!registered) throw new Error(`No approvable call ${row.call}.`);
    const close = async (tx: Queryable) => {
      if (!(await repo.close(tx, row.id, ['approved'], 'applied', null))) throw new RequestNoLongerOpen();
      await recordApprovalEvent(tx, row, 'approval_applied', { email: caller.email, type: 'admin' });
    };
    const closing = closingDb(db, close);
    // The records the action writes (a policy's history) name who approved it beside who asked.
    const approvedBy = (await repo.decisions(db, [row.id]))
      .filter((d) => d.decision === 'approved')
      .map((d) => (d.operator ? 'operator' : d.name || d.email));
    let result: unknown;
    try {
      result = await registered.def.run(row.payload as never, { ...caller, approvedBy }, closing.db);
    } catch (error) {
      if (error instanceof RequestNoLongerOpen) return undefined;
      if (!(error instanceof AppError) || closing.closed()) throw error;
      await db.transaction(async (tx) => {
        if (!(await repo.close(tx, row.id, ['approved'], 'failed', error.description))) return;
        await recordApprovalEvent(tx, row, 'approval_apply_failed', { email: caller.email, type: 'admin' }, { code: error.code });
      });
      return undefined;
    }
    // An action that ran outside any transaction (a read, such as an export): the request closes
    // after it, and only the run that closes it hands out its answer.
    if (!closing.closed()) {
      try {
        await db.transaction(close);
      } catch (error) {
        if (error instanceof RequestNoLongerOpen) return undefined;
        throw error;
      }
    }
    return { result };
  }

  /** Records the request (or finds the same person's open one for the same payload) and answers 202. */
  async function ask(
    caller: Caller,
    registered: Registered,
    payload: Record<string, unknown>,
    hash: string,
    policy: ApprovalPolicy,
  ): Promise<never> {
    const { endpoint, action, def } = registered;
    const described = await def.describe?.(payload as never, caller, db);
    const row = await db.transaction(async (tx) => {
      const open = await repo.findOpen(tx, caller.team.id, caller.userId, endpoint.name, hash);
      if (open?.status === 'pending') return open;
      const admins = await deps.teamAdmins(tx, caller.team.id);
      const me = admins.find((a) => a.user_id === caller.userId);
      const created = await repo.create(tx, {
        teamId: caller.team.id,
        action,
        call: endpoint.name,
        payload,
        payloadHash: hash,
        requesterId: caller.userId,
        requester: caller,
        requesterEmail: caller.email,
        requesterName: me?.name ?? '',
        summary: described?.summary ?? `${action} (${endpoint.name})`,
        changes: described?.changes ?? [],
        approversRequired: policy.approvers,
        apply: infoOf(action).apply,
        expiryHours: policy.expiry_hours,
      });
      await recordApprovalEvent(tx, created, 'approval_requested', { email: caller.email, type: 'admin' });
      const approvers = eligibleApprovers(admins, action, caller.userId);
      await mailApprovers(tx, deps.mail, created, approvers, caller.team.name, deps.consoleUrl());
      await expiry.enqueue(
        tx,
        { teamId: caller.team.id },
        { key: `expire:${created.id}`, delaySeconds: policy.expiry_hours * 3600 + 1 },
      );
      return created;
    });
    throw approvalRequired(row);
  }

  /**
   * A by_requester action the requester repeats once approved: it runs now, closing the request
   * in its transaction, so it runs once. Undefined: nothing approved to run.
   */
  async function claim(caller: Caller, registered: Registered, hash: string) {
    const open = await repo.findOpen(db, caller.team.id, caller.userId, registered.endpoint.name, hash);
    if (open?.status !== 'approved') return undefined;
    return apply(open, caller);
  }

  const approvals: Approvals = {
    policyOf,
    approvable(endpoint, action, def) {
      if (registry.has(endpoint.name)) throw new Error(`${endpoint.name} is approvable twice.`);
      const registered: Registered = { endpoint, action, def: def as ApprovableDef<never, unknown> };
      registry.set(endpoint.name, registered);
      return async (caller, input, options) => {
        const when: AskWhen = options?.ask ?? 'policy';
        if (when === 'never') return def.run(input, caller, db);
        const policy = await policyOf(db, caller.team.id);
        const needed = when === 'always' || (policy.enabled && (when === 'when_enabled' || policy.actions.includes(action)));
        if (!needed || (options?.onlyIf && !(await options.onlyIf()))) return def.run(input, caller, db);
        await expireDue(caller.team.id);
        const payload = plainPayload(input);
        const hash = payloadHash(endpoint.name, payload);
        if (infoOf(action).apply === 'by_requester') {
          const claimed = await claim(caller, registered, hash);
          if (claimed) return claimed.result as Awaited<ReturnType<typeof def.run>>;
        }
        return ask(caller, registered, payload, hash, policy);
      };
    },
  };

  /** A request as the caller sees it: what they may do with it, and whether it can be decided at all. */
  function view(row: RequestRow, decisions: DecisionRow[], admins: TeamAdmin[], caller: Caller | null): ApprovalRequest {
    const eligible = eligibleApprovers(admins, row.action, row.requester_id);
    const mine = decisions.filter((d) => d.request_id === row.id);
    const decided = caller ? mine.some((d) => d.user_id === caller.userId) : false;
    const open = row.status === 'pending' && row.expires_at.getTime() > Date.now();
    return {
      id: row.id,
      action: row.action,
      status: row.status,
      requester: { email: row.requester_email, name: row.requester_name },
      summary: row.summary,
      payload: row.payload,
      payload_hash: row.payload_hash,
      changes: row.changes,
      approvals: mine.map((d) => ({
        email: d.operator ? 'operator' : d.email,
        name: d.name,
        decision: d.decision,
        comment: d.comment,
        at: d.decided_at.toISOString(),
        operator: d.operator,
      })),
      approvers_required: row.approvers_required,
      apply: row.apply,
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      closed_at: row.closed_at?.toISOString() ?? null,
      closed_reason: row.closed_reason,
      can_decide:
        caller !== null && open && !decided && caller.userId !== row.requester_id && holdsScope(caller.scopes, row.action),
      can_withdraw: caller !== null && caller.userId === row.requester_id && ['pending', 'approved'].includes(row.status),
      eligible_approvers: eligible.length,
      locked_out: eligible.length < row.approvers_required - 1,
    };
  }

  async function views(q: Queryable, caller: Caller | null, teamId: string, rows: RequestRow[]) {
    const decisions = await repo.decisions(
      q,
      rows.map((r) => r.id),
    );
    const admins = await deps.teamAdmins(q, teamId);
    return rows.map((row) => view(row, decisions, admins, caller));
  }

  /** Counts the people (not sessions) who approved besides the requester; the operator's approval stands for all. */
  const approvedEnough = (row: RequestRow, decisions: DecisionRow[]) =>
    decisions.some((d) => d.operator && d.decision === 'approved') ||
    new Set(decisions.filter((d) => d.decision === 'approved' && d.user_id !== row.requester_id).map((d) => d.user_id)).size >=
      row.approvers_required - 1;

  const service = {
    async policy(caller: Caller) {
      const policy = await policyOf(db, caller.team.id);
      const supers = eligibleApprovers(await deps.teamAdmins(db, caller.team.id), 'approvals.policy', null);
      return {
        policy,
        actions: Object.keys(APPROVAL_ACTIONS).filter((a) => !infoOf(a as ApprovalAction).reserved) as ApprovalAction[],
        eligible_approvers: supers.length,
        locked_out: supers.length < policy.approvers,
      };
    },

    /** Saving the policy (the approvable run of approvalPolicyUpdate). */
    async savePolicy(caller: Caller, policy: ApprovalPolicy, q: Db) {
      await q.transaction(async (tx) => {
        await repo.savePolicy(tx, caller.team.id, policy, caller.userId);
        await recordApprovalEvent(
          tx,
          { id: '', team_id: caller.team.id, action: 'approvals.policy', requester_email: caller.email },
          'approval_policy_changed',
          { email: caller.email, type: 'admin' },
          {
            enabled: policy.enabled,
            approvers: policy.approvers,
            expiry_hours: policy.expiry_hours,
            actions: policy.actions.join(','),
          },
        );
      });
      const supers = eligibleApprovers(await deps.teamAdmins(q, caller.team.id), 'approvals.policy', null);
      return {
        code: 'updated' as const,
        policy,
        eligible_approvers: supers.length,
        locked_out: supers.length < policy.approvers,
      };
    },

    async list(caller: Caller, view: 'pending_for_me' | 'mine' | 'all', page: number, pageSize: number) {
      await expireDue(caller.team.id);
      const pendingForMe = (await views(db, caller, caller.team.id, await repo.pending(db, caller.team.id))).filter(
        (r) => r.can_decide,
      );
      if (view === 'pending_for_me') {
        const start = (page - 1) * pageSize;
        return {
          results: pendingForMe.slice(start, start + pageSize),
          count: pendingForMe.length,
          pending_for_me: pendingForMe.length,
        };
      }
      const { rows, count } = await repo.list(
        db,
        caller.team.id,
        { requesterId: view === 'mine' ? caller.userId : undefined, visible: visibleTo(caller) },
        { limit: pageSize, offset: (page - 1) * pageSize },
      );
      return { results: await views(db, caller, caller.team.id, rows), count, pending_for_me: pendingForMe.length };
    },

    async count(caller: Caller) {
      const pending = await views(db, caller, caller.team.id, await repo.pending(db, caller.team.id));
      return { pending_for_me: pending.filter((r) => r.can_decide).length };
    },

    async get(caller: Caller, id: string) {
      await expireDue(caller.team.id);
      const row = await repo.find(db, caller.team.id, id);
      if (!row || !sees(caller, row)) throw notFound();
      return (await views(db, caller, caller.team.id, [row]))[0] as ApprovalRequest;
    },

    /**
     * One person's decision. The request is locked: of two approvals arriving together, the one
     * that completes it runs the action, and the other finds it closed.
     */
    async decide(caller: Caller, id: string, decision: 'approve' | 'reject', comment: string) {
      await expireDue(caller.team.id);
      const completed = await db.transaction(async (tx): Promise<RequestRow | undefined> => {
        const row = await repo.lock(tx, id);
        if (!row || row.team_id !== caller.team.id) throw notFound();
        if (row.status !== 'pending') throw closed(row);
        if (row.requester_id === caller.userId) {
          throw new AppError('approval_own_request', 'You asked for this change: another administrator must approve it.').shows(
            'errors.approval_own_request',
          );
        }
        if (!holdsScope(caller.scopes, row.action)) {
          throw new AppError(
            'approval_scope_missing',
            `Approving ${row.action} needs the ${infoOf(row.action).approverScopes.join(' or ')} scope.`,
          ).shows('errors.approval_scope_missing');
        }
        const admins = await deps.teamAdmins(tx, caller.team.id);
        const me = admins.find((a) => a.user_id === caller.userId);
        const recorded = await repo.decide(tx, {
          requestId: row.id,
          userId: caller.userId,
          email: caller.email,
          name: me?.name ?? '',
          decision: decision === 'approve' ? 'approved' : 'rejected',
          comment,
          operator: false,
        });
        if (!recorded) {
          throw new AppError('approval_already_decided', 'You have already decided on this request.').shows(
            'errors.approval_already_decided',
          );
        }
        const actor = { email: caller.email, type: 'admin' as const };
        if (decision === 'reject') {
          await repo.close(tx, row.id, ['pending'], 'rejected', comment || null);
          await recordApprovalEvent(tx, row, 'approval_rejected', actor, { comment });
          return undefined;
        }
        await recordApprovalEvent(tx, row, 'approval_approved', actor, { comment });
        if (!approvedEnough(row, await repo.decisions(tx, [row.id]))) return undefined;
        await repo.markApproved(tx, row.id);
        if (row.apply === 'on_approval') await applyQueue.enqueue(tx, { requestId: row.id }, { key: `apply:${row.id}` });
        return row;
      });
      // The last approval runs it now, as its requester (the queued run then finds it closed).
      if (completed?.apply === 'on_approval') await apply(completed, completed.requester as unknown as Caller);
      return service.get(caller, id);
    },

    async withdraw(caller: Caller, id: string, comment: string) {
      await db.transaction(async (tx) => {
        const row = await repo.lock(tx, id);
        if (!row || row.team_id !== caller.team.id) throw notFound();
        if (row.requester_id !== caller.userId) {
          throw new AppError('forbidden', 'Only the administrator who asked can withdraw a request.', 403).shows(
            'errors.approval_withdraw_not_yours',
          );
        }
        if (!(await repo.close(tx, row.id, ['pending', 'approved'], 'withdrawn', comment || null))) throw closed(row);
        await recordApprovalEvent(tx, row, 'approval_withdrawn', { email: caller.email, type: 'admin' }, { comment });
      });
      return service.get(caller, id);
    },
  };

  return { approvals, service, expireDue, sweep: () => expireDue() };
}

export type ApprovalsRoom = ReturnType<typeof createApprovals>;
