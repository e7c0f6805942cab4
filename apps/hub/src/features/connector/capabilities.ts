import { AUX_SERVICES, type AuxService, compareVersions, FEATURE_VERSIONS } from '@latchkey/contracts';

/** The first Hub version that runs each service; the rest were there from the start. */
const SINCE: Partial<Record<AuxService, string>> = {
  audit: FEATURE_VERSIONS.audit,
  secret_sharing: FEATURE_VERSIONS.sharing,
};

/** The auxiliary services a Hub of `version` offers, in the contracts' order. */
export function servicesFor(version: string): AuxService[] {
  return AUX_SERVICES.filter((s) => {
    const since = SINCE[s];
    return since === undefined || compareVersions(version, since) >= 0;
  });
}
