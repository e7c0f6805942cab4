/** The onboarding wizard, its own lazy chunk. */
export { Onboarding } from './Onboarding.tsx';
