// The onboarding feature's public entry: what other features may use; its other files are internals.
export type { ConsentProvider } from './consent.ts';
