/** The billing screen (lazy chunk, app/layout/screens.ts). */
export { Billing } from './Billing.tsx';
