// The dashboard feature's public entry: what other features may use; its other files are internals.
export { dashboardKeys } from './api.ts';
