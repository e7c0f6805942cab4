/** The security audit screens, one lazy chunk. */
export { Audit } from './Audit.tsx';
export { VaultSummary } from './VaultSummary.tsx';
