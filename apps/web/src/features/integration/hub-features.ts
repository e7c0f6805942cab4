import {
  type AuxService,
  type AuxServiceFlag,
  compareVersions,
  FEATURE_VERSIONS,
  type Feature,
  TOGGLE_SERVICE_CODES,
} from '@latchkey/contracts/client';
import { ApiError, errorMessage, SOMETHING_WENT_WRONG } from '../../lib/api-error.ts';

/**
 * Whether the connected Hub runs a feature (spec §1 feature versions): offered only when the Hub
 * is at least the feature's version; otherwise the version to upgrade to, or no Hub at all.
 */
type FeatureState = { state: 'available' } | { state: 'upgrade' | 'no_hub'; version: string };

export function featureState(hubVersion: string | null | undefined, feature: Feature): FeatureState {
  const version = FEATURE_VERSIONS[feature];
  if (!hubVersion) return { state: 'no_hub', version };
  return compareVersions(hubVersion, version) >= 0 ? { state: 'available' } : { state: 'upgrade', version };
}

/** The services the integration screen switches, with the feature whose version each needs. */
export const SERVICE_ROWS: readonly { flag: AuxServiceFlag; service: AuxService; feature?: Feature }[] = [
  { flag: 'enable_integration', service: 'integration' },
  { flag: 'enable_audit', service: 'audit', feature: 'audit' },
  { flag: 'enable_audit_logs', service: 'audit_logs', feature: 'siem' },
  { flag: 'enable_recovery', service: 'recovery', feature: 'recovery_link' },
  { flag: 'enable_secret_sharing', service: 'secret_sharing', feature: 'sharing' },
];

/** Spec §8: the toggle-service codes show the server's description; any other failure 'Something went wrong'. */
export function toggleErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return SOMETHING_WENT_WRONG;
  if ((TOGGLE_SERVICE_CODES as readonly string[]).includes(error.code)) {
    return error.shown?.key ?? (error.description || SOMETHING_WENT_WRONG);
  }
  if (error.failure === 'FETCH_ERROR' || error.failure === 'TIMEOUT_ERROR') return errorMessage(error);
  return SOMETHING_WENT_WRONG;
}

/** Integration calls: the toggle-service codes show their description (also from setup); others as usual. */
export function integrationErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.shown && !error.failure) return error.shown.key;
  if (error instanceof ApiError && (TOGGLE_SERVICE_CODES as readonly string[]).includes(error.code) && error.description) {
    return error.description;
  }
  if (error instanceof ApiError && error.target === 'hub' && !error.failure && error.description) return error.description;
  return errorMessage(error);
}
