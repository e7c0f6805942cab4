// The approvals feature's public entry: what a feature uses to put a call under four-eyes approval
// (approvals.gate.ts), and what the operator's command line uses to break glass.

export type { TeamAdmin } from './approval-rules.ts';
export type { Approvable, ApprovableDef, Approvals, AskOptions, AskWhen } from './approvals.gate.ts';
export { type ApprovalsOperator, createApprovalsOperator } from './approvals-operator.ts';
export { hubApprovalRoutes } from './hub-approval-check.ts';
