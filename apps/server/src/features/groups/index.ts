// The groups feature's public entry: what other features may use; its other files are internals.
export * from './groups.repository.ts';
export * from './groups.service.ts';
