// The account feature's public entry: what other features may use; its other files are internals.
export * from './account.repository.ts';
export * from './password-reset.repository.ts';
export * from './recovery-codes.ts';
export * from './security-keys.ts';
