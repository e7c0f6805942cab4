import { join } from 'node:path';
import { selfSignedCert } from '../../apps/hub/src/testing/siem-receivers.ts';
import { HUB_URL } from './env.ts';

/**
 * The SIEM receivers the event-log spec starts (apps/hub/src/testing/siem-receivers.ts). Most take
 * any free port (the form names it); Sentinel's two are where the suite's Hub was told to find them
 * (its SENTINEL_DATA_COLLECTOR_URL and SENTINEL_TOKEN_URL), at E2E_PORT_BASE + 20 and + 21, beside
 * the extra Hubs' ports (+ 9 … + 18). Their certificate is made once by the runner in the run's data
 * directory and trusted by the Hub (SIEM_CA_FILE): Sumo Logic and Sentinel forms have no
 * "allow an unverified certificate".
 */
const hubPort = Number(new URL(HUB_URL).port);
export const SENTINEL_LEGACY_PORT = hubPort - 1 + 20;
export const SENTINEL_INGESTION_PORT = hubPort - 1 + 21;

export const siemTls = (dataRoot: string) => selfSignedCert(join(dataRoot, 'siem-tls'));

/** The Hub's environment for the receivers above. */
export const hubSiemEnv = (dataRoot: string): Record<string, string> => ({
  SIEM_CA_FILE: siemTls(dataRoot).certFile,
  SIEM_PUMP_INTERVAL_MS: '250',
  SENTINEL_DATA_COLLECTOR_URL: `https://127.0.0.1:${SENTINEL_LEGACY_PORT}/{workspace_id}/api/logs?api-version=2016-04-01`,
  SENTINEL_TOKEN_URL: `https://127.0.0.1:${SENTINEL_INGESTION_PORT}/{tenant_id}/oauth2/v2.0/token`,
});
