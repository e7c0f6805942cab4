// The members feature's public entry: what other features may use; its other files are internals.

export * from './directory-members.repository.ts';
export * from './family-benefit.repository.ts';
export * from './member-events.ts';
export * from './members.demo.ts';
export * from './members.repository.ts';
// The licence rule every way of adding members keeps (directory sync's batches too).
export { assertLicencesAvailable } from './members.service.ts';
export * from './members-by-id.repository.ts';
export * from './scim-members.repository.ts';
