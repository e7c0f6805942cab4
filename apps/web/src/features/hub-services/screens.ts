/** The Hub service screens (security audit, sharing, recovery), one lazy chunk. */

export { Audit } from './Audit.tsx';
export { Recovery } from './Recovery.tsx';
export { RecoveryAdmins } from './RecoveryAdmins.tsx';
export { RecoverySettings } from './RecoverySettings.tsx';
export { Sharing } from './Sharing.tsx';
export { VaultSummary } from './VaultSummary.tsx';
