// The family feature's public entry: what other features may use; its other files are internals.
export { applyFamilyBenefit } from './family.service.ts';
