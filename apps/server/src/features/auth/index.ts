// The auth feature's public entry: what other features may use; its other files are internals.

export { loginTokensRepository } from './login-tokens.ts';
export * from './onboarding-invites.ts';
export { type SessionRow, sessionsRepository } from './sessions.repository.ts';
export * from './sessions.service.ts';
