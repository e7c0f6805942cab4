// The groups feature's public entry: what other features may use; its other files are internals.

export * from './directory-groups.repository.ts';
export * from './group-lookups.repository.ts';
export * from './groups.repository.ts';
export * from './groups.service.ts';
export * from './scim-groups.repository.ts';
