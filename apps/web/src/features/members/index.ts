// The members feature's public entry: what other features may use; its other files are internals.
export { memberKeys } from './api.ts';
export { MemberManagedNote, MemberSourceBadge } from './MemberSource.tsx';
