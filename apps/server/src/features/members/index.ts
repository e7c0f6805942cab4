// The members feature's public entry: what other features may use; its other files are internals.
export * from './member-events.ts';
export * from './members.demo.ts';
export * from './members.repository.ts';
