import { createHash } from 'node:crypto';
import { type ApprovalAction, type ApprovalChange, type HubApprovalCall, hubApprovalCheckEndpoint } from '@latchkey/contracts';
import { AppError } from '@latchkey/runtime';
import type { HubCaller } from '../http/caller.ts';
import type { HubKeys } from './keys.ts';
import { type ServerRegistration, signedServerCall } from './server-call.ts';

/** What a gated Hub call asks the licence server: its class, the call, its input, and what approvers see. */
export interface HubApprovalAsk {
  action: ApprovalAction;
  call: HubApprovalCall;
  input: Record<string, unknown>;
  summary: string;
  changes?: ApprovalChange[];
}

/**
 * Before a gated call runs: resolves when it may run now (the team's policy does not cover it, or
 * the caller's identical request was approved and is now claimed, once); otherwise throws the
 * 202 `approval_required` answer the server's gated calls give, with the request's id.
 */
export type HubApprovalGate = (caller: HubCaller, ask: HubApprovalAsk) => Promise<void>;

/** Fields whose values are secrets: the server records their SHA-256 instead (a changed secret is still another payload). */
const SECRET_FIELD = /(?:token|secret|password|^key$)/i;

/** The input as the request records it: without the team (the request is the team's) and without secrets. */
export function approvalPayload(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([key]) => key !== 'team_slug')
      .map(([key, value]) =>
        SECRET_FIELD.test(key) && typeof value === 'string' && value !== ''
          ? [key, `sha256:${createHash('sha256').update(value).digest('hex')}`]
          : [key, value],
      ),
  );
}

/**
 * The Hub's gate of four-eyes approvals. The Hub serves these calls, but the team's policy and its
 * requests live at the licence server: the Hub asks it over the signed Hub → server channel. A
 * registration without a server address has no policy to ask (nothing is covered). When the
 * server cannot answer, the call is refused (503 approval_check_unavailable): the policy may be on,
 * and a gate that opens when its keeper is unreachable is no gate.
 */
export function createApprovalGate(
  keys: HubKeys,
  registrationOf: (registrationId: string) => Promise<ServerRegistration | undefined>,
): HubApprovalGate {
  return async (caller, ask) => {
    const registration = await registrationOf(caller.registrationId);
    if (!registration?.server_url) return;
    const answer = await signedServerCall(keys, registration, hubApprovalCheckEndpoint, caller.teamSlug, {
      team_slug: caller.teamSlug,
      sid: caller.consoleSid ?? '',
      user_id: caller.userId,
      action: ask.action,
      call: ask.call,
      payload: approvalPayload(ask.input),
      summary: ask.summary,
      changes: ask.changes ?? [],
    });
    if (!answer.ok) {
      if (answer.error?.code === 'token_expired')
        throw new AppError('token_expired', 'The console session has ended. Sign in again.', 401);
      throw new AppError(
        'approval_check_unavailable',
        "The licence server cannot say now whether this change needs another administrator's approval; nothing has changed. Try again shortly.",
      ).shows('errors.approval_check_unavailable');
    }
    if (answer.data.decision === 'run') return;
    const error = new AppError('approval_required', answer.data.description).shows('errors.approval_required', {
      requested_at: answer.data.requested_at,
    });
    error.requestId = answer.data.request_id;
    throw error;
  };
}
