// The billing feature's public entry: what other features (and the operator CLI) may use.

export { seedBillingDemo } from './billing.demo.ts';
export { createBillingService } from './billing.service.ts';
export { subscriptionDays } from './standing.ts';
