// The registrations feature's public entry: what other features may use.
export { type RegistrationRow, registrationsRepository } from './registrations.repository.ts';
export { mintSetupKey, redeemSetupKey } from './setup-keys.ts';
