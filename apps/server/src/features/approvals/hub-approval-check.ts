import { AsyncLocalStorage } from 'node:async_hooks';
import {
  APPROVAL_ACTIONS,
  type ApprovalAction,
  type ApprovalChange,
  ENDPOINTS,
  type Endpoint,
  hubApprovalCheckEndpoint,
  isHubAction,
} from '@latchkey/contracts';
import { AppError, type Router } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import type { Caller, Guard } from '../../http/caller.ts';
import type { Approvable, Approvals } from './approvals.gate.ts';

export interface HubApprovalDeps {
  approvals: Approvals;
  /** Verifies the Hub's signature for this path and team (the integration room's); its team's id. */
  acceptHub(request: FastifyRequest, path: string, teamSlug: string): Promise<{ team_id: string }>;
  /** The caller a live console session stands for (the guard's own reading), or undefined. */
  sessionCaller(sessionId: string): Promise<Caller | undefined>;
}

/** What the Hub says approvers should see of this request: handed to `describe` for the call being asked. */
const described = new AsyncLocalStorage<{ summary: string; changes: ApprovalChange[] }>();

/**
 * The Hub's gated calls, asked over the signed Hub → server channel. The Hub serves them (the
 * server never sees their data), so what runs here is only the gate: the same requests, hashes,
 * same-person rules, events and mails as the server's own gated calls. `run` does nothing but say
 * "run": with the policy off, or the requester's identical request approved (claimed, closed as
 * applied once), the Hub runs the call itself; otherwise the request's 202 goes back to the Hub.
 */
export function hubApprovalRoutes(router: Router, guard: Guard, deps: HubApprovalDeps) {
  const gates = new Map<string, Approvable<Endpoint>>();
  for (const [action, info] of Object.entries(APPROVAL_ACTIONS) as [ApprovalAction, { endpoints: readonly string[] }][]) {
    if (!isHubAction(action)) continue;
    for (const call of info.endpoints) {
      const endpoint = (ENDPOINTS as unknown as Record<string, Endpoint>)[call];
      if (!endpoint) throw new Error(`No endpoint ${call}.`);
      // One Hub call may belong to two classes (siemToolUpdate: off, or removing the destination).
      const key = `${call}@${action}`;
      const gate = deps.approvals.approvable({ ...endpoint, name: key } as Endpoint, action, {
        run: async () => ({ decision: 'run' }) as never,
        describe: async () => described.getStore() ?? { summary: `${action} (${call})` },
      });
      gates.set(key, gate as Approvable<Endpoint>);
    }
  }

  router.handle(hubApprovalCheckEndpoint, guard, async ({ input, request }) => {
    const hub = await deps.acceptHub(request, hubApprovalCheckEndpoint.path, input.team_slug);
    const gate = gates.get(`${input.call}@${input.action}`);
    if (!gate) throw new AppError('invalid_input', `${input.call} is not a Hub call of ${input.action}.`);
    const caller = await deps.sessionCaller(input.sid);
    if (!caller || caller.team.id !== hub.team_id || caller.userId !== input.user_id) {
      throw new AppError('token_expired', 'That console session has ended.', 401);
    }
    try {
      await described.run({ summary: input.summary, changes: input.changes }, () => gate(caller, input.payload as never));
      return { decision: 'run' as const };
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'approval_required' || !error.requestId) throw error;
      return {
        decision: 'approval_required' as const,
        request_id: error.requestId,
        description: error.description,
        requested_at: String(error.messageValues?.requested_at ?? new Date().toISOString()),
      };
    }
  });
}
