import { z } from 'zod';
import { APPROVAL_ACTIONS, type ApprovalAction, ApprovalActionCode, ApprovalChange } from './approvals.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * The Hub's half of four-eyes approvals: the Hub serves the event log's settings, the SIEM export
 * and directory sync, so it asks the team's licence server, in a call signed with its own key,
 * before running one of those calls. docs/approvals.md ("The Hub's settings") explains the model.
 */

/** The Hub calls each class may hold, by endpoint name (APPROVAL_ACTIONS names the same). */
export const HUB_APPROVAL_CALLS = [
  'auditLogsConfigurationUpdate',
  'auditLogsConfiguration',
  'siemToolsConfigure',
  'siemToolUpdate',
  'auditLogsPullToken',
  'directorySave',
  'directoryDelete',
  'directoryApply',
  'directorySyncNow',
] as const;
export type HubApprovalCall = (typeof HUB_APPROVAL_CALLS)[number];

export const hubApprovalCheckEndpoint = defineEndpoint({
  name: 'hubApprovalCheck',
  program: 'server',
  method: 'POST',
  path: '/api/v1/hub/approvals/check/',
  auth: 'public',
  errors: ['unauthorized', 'invalid_input', 'token_expired'],
  summary:
    "Hub to server (signed with the Hub's key): may this console session's admin run this Hub call now? `run` when the team's policy does not cover it, or when the admin's identical request was approved (claimed here, once); otherwise the server records the request (or finds the same open one) and answers `approval_required` with its id, which the Hub passes on as 202.",
  input: z.object({
    team_slug: z.string().min(1).max(100),
    /** The console session the Hub session came from, and its user: the requester. */
    sid: z.string().max(100),
    user_id: z.string().max(100),
    action: ApprovalActionCode,
    call: z.enum(HUB_APPROVAL_CALLS),
    /** The call's input exactly as it will run (hashed with the call's name). */
    payload: z.record(z.string(), z.unknown()),
    /** What approvers see: an English line, and each field's before → after. */
    summary: z.string().max(500),
    changes: z.array(ApprovalChange).max(50).default([]),
  }),
  output: z.discriminatedUnion('decision', [
    z.object({ decision: z.literal('run') }),
    z.object({
      decision: z.literal('approval_required'),
      request_id: z.string(),
      description: z.string(),
      requested_at: z.string(),
    }),
  ]),
});

/** The action classes the Hub gates (the server accepts no other through this channel). */
export const isHubAction = (action: ApprovalAction): boolean => APPROVAL_ACTIONS[action].program === 'hub';
