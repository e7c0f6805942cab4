// The members feature's public entry: what other features may use; its other files are internals.

export * from './family-benefit.repository.ts';
export * from './member-events.ts';
export * from './members.demo.ts';
export * from './members.repository.ts';
export * from './members-by-id.repository.ts';
export * from './scim-members.repository.ts';
