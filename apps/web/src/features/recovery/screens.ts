/** The recovery screens, one lazy chunk. */
export { Recovery } from './Recovery.tsx';
export { RecoveryAdmins } from './RecoveryAdmins.tsx';
export { RecoverySettings } from './RecoverySettings.tsx';
