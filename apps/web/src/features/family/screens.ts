/** The family plan settings screen (issue 16). */
export { FamilyPlan } from './FamilyPlan.tsx';
