import type { AuxService } from './access.ts';

/** The product key of a self-hosted Hub credential (spec §7 `{product}_hosted_hub`). */
export const HOSTED_HUB_KEY = 'latchkey_hosted_hub';

/** Spec §3 auxiliary-service flags, and the service each switches. */
export const AUX_SERVICE_FLAGS = {
  enable_integration: 'integration',
  enable_audit: 'audit',
  enable_audit_logs: 'audit_logs',
  enable_recovery: 'recovery',
  enable_secret_sharing: 'secret_sharing',
} as const satisfies Record<string, AuxService>;
export type AuxServiceFlag = keyof typeof AUX_SERVICE_FLAGS;

/** Toggle-service codes whose server description the console shows (spec §8). */
export const TOGGLE_SERVICE_CODES = ['auth_not_set', 'aux_server_not_connected', 'failed', 'not_allowed'] as const;

export const HOSTING_PREFERENCES = ['not_set', 'self_hosted'] as const;
export type HostingPreference = (typeof HOSTING_PREFERENCES)[number];
