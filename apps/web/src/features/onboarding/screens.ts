/** The onboarding wizard (lazy chunk). */
export { Onboarding } from './Onboarding.tsx';
