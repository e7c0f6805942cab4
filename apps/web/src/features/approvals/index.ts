// The approvals feature's public entry: what the frame shows on every screen; its other files are internals.
export { ApprovalNotice } from './ApprovalNotice.tsx';
export { ApprovalsBadge } from './ApprovalsBadge.tsx';
