// The connector feature's public entry: what other features may use.
export { servicesFor } from './capabilities.ts';
