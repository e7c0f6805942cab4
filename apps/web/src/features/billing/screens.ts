/** The billing screen (lazy chunk, see routes.ts). */
export { Billing } from './Billing.tsx';
