// The family feature's public entry: what other features may use; its other files are internals.
export { familyRepository } from './family.repository.ts';
export { applyFamilyBenefit } from './family.service.ts';
