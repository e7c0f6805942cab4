// The registrations feature's public entry: what other features may use.
export { type RegistrationRow, registrationsRepository } from './registrations.repository.ts';
