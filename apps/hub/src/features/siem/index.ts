// The SIEM export's public entry: the composition root builds the service and serves its calls here.

export { siemRoutes } from './siem.routes.ts';
export { createSiemService } from './siem.service.ts';
export { siemDestinationsGauge } from './siem-metrics.ts';
