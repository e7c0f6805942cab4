/** The onboarding wizard (issue 16). */
export { Onboarding } from './Onboarding.tsx';
