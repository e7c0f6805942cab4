import type { PolicyValue } from './policy-catalogue.ts';

/**
 * Which way each policy tightens, so a change can be told to relax a rule (four-eyes approval's
 * `policies.relax`, and the impact preview's warning):
 * - `higher` / `lower`: a larger / smaller number is stricter;
 * - `on` / `off`: true / false is stricter;
 * - a list: the enum's values from loosest to strictest.
 * `expiry`: 0 is "never expires", the loosest; otherwise fewer days is stricter.
 */
const DIRECTION: Record<string, 'higher' | 'lower' | 'on' | 'off' | 'expiry' | readonly string[]> = {
  'mp.min_length': 'higher',
  'mp.require_uppercase': 'on',
  'mp.require_lowercase': 'on',
  'mp.require_digits': 'on',
  'mp.require_symbols': 'on',
  'mp.block_breached': 'on',
  'mp.expiry_days': 'expiry',
  'tfa.required': 'on',
  'tfa.methods': ['any', 'authenticator_or_key', 'security_key'],
  'autolock.minutes': 'lower',
  'autolock.on_browser_close': 'on',
  'biometrics.allowed': 'off',
  'vault.personal_allowed': 'off',
  'sharing.scope': ['anyone', 'team_only', 'none'],
  'export.allowed': 'off',
  'import.allowed': 'off',
  'autofill.enabled': 'off',
  'autofill.on_page_load': 'off',
  'cloud_sync.enabled': 'off',
  'offline_access.allowed': 'off',
  'generator.length': 'higher',
  'generator.digits': 'on',
  'generator.symbols': 'on',
};

/** A comparable strictness of one value: a larger number is stricter. */
function strictness(key: string, value: PolicyValue): number {
  const direction = DIRECTION[key];
  if (direction === undefined) return 0;
  if (Array.isArray(direction)) return direction.indexOf(String(value));
  switch (direction) {
    case 'higher':
      return Number(value);
    case 'lower':
      return -Number(value);
    case 'on':
      return value === true ? 1 : 0;
    case 'off':
      return value === false ? 1 : 0;
    default:
      return Number(value) === 0 ? Number.NEGATIVE_INFINITY : -Number(value);
  }
}

/** Whether `after` is a looser value of the policy `key` than `before` (an unknown key never is). */
export function isLooser(key: string, before: PolicyValue, after: PolicyValue): boolean {
  return strictness(key, after) < strictness(key, before);
}
