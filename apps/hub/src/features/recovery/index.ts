// The recovery feature's public entry: what other features may use.
export { recoveryRepository } from './recovery.repository.ts';
