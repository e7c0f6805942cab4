// The auth feature's public entry: what other features may use; its other files are internals.
export * from './onboarding-invites.ts';
export * from './sessions.service.ts';
export { loginTokensRepository } from './login-tokens.ts';
