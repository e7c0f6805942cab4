// Alert rules' public entry: the composition root builds the engine, the deliveries and the service here.

export { defineAlertDelivery } from './alert-delivery.ts';
export { createAlertEngine } from './alert-engine.ts';
export { createRecipientCheck } from './alert-recipients.ts';
export { alertsRoutes } from './alerts.routes.ts';
export { createAlertsService } from './alerts.service.ts';
