/** The family plan settings screen, its own lazy chunk. */
export { FamilyPlan } from './FamilyPlan.tsx';
