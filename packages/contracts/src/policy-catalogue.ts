import { MP_MIN_LENGTH_CAP } from './constants.ts';

/**
 * Every policy the members' apps follow (spec §3 Policy), zod-free so the console's
 * policy screens and the server read the same list.
 *
 * - `readonly`: fixed by the product; shown for information, never in a saved policy.
 * - `non_removable`: the team policy always holds a value; 'auto' (remove the key) is refused.
 * - `is_editable`: a group policy may override it; false keeps the key team-wide.
 */
export type PolicyType =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'enum'; values: readonly string[] };

export type PolicyValue = boolean | number | string;

export const POLICY_CATEGORIES = ['master_password', 'two_factor', 'session', 'vault', 'autofill', 'sync', 'generator'] as const;
export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];

export interface PolicyDefinition {
  key: string;
  category: PolicyCategory;
  type: PolicyType;
  default: PolicyValue;
  readonly: boolean;
  non_removable: boolean;
  is_editable: boolean;
}

const bool = { kind: 'boolean' } as const;
const int = (min: number, max: number) => ({ kind: 'integer', min, max }) as const;
const oneOf = (...values: string[]) => ({ kind: 'enum', values }) as const;

function def(
  key: string,
  category: PolicyCategory,
  type: PolicyType,
  defaultValue: PolicyValue,
  flags: Partial<Pick<PolicyDefinition, 'readonly' | 'non_removable' | 'is_editable'>> = {},
): PolicyDefinition {
  return {
    key,
    category,
    type,
    default: defaultValue,
    readonly: flags.readonly ?? false,
    non_removable: flags.non_removable ?? false,
    is_editable: flags.is_editable ?? true,
  };
}

export const POLICY_CATALOGUE: readonly PolicyDefinition[] = [
  def('mp.min_length', 'master_password', int(8, MP_MIN_LENGTH_CAP), 12, { non_removable: true }),
  def('mp.require_uppercase', 'master_password', bool, false),
  def('mp.require_lowercase', 'master_password', bool, false),
  def('mp.require_digits', 'master_password', bool, false),
  def('mp.require_symbols', 'master_password', bool, false),
  def('mp.block_breached', 'master_password', bool, true),
  def('mp.expiry_days', 'master_password', int(0, 3650), 0),
  def('tfa.required', 'two_factor', bool, false),
  def('tfa.methods', 'two_factor', oneOf('any', 'authenticator_or_key', 'security_key'), 'any'),
  def('autolock.minutes', 'session', int(1, 1440), 15, { non_removable: true }),
  def('autolock.on_browser_close', 'session', bool, true),
  def('biometrics.allowed', 'session', bool, true),
  def('vault.personal_allowed', 'vault', bool, true),
  def('sharing.scope', 'vault', oneOf('anyone', 'team_only', 'none'), 'team_only'),
  def('export.allowed', 'vault', bool, false),
  def('import.allowed', 'vault', bool, true),
  def('vault.encryption', 'vault', oneOf('aes_256_gcm'), 'aes_256_gcm', { readonly: true, is_editable: false }),
  def('autofill.enabled', 'autofill', bool, true),
  def('autofill.on_page_load', 'autofill', bool, false),
  def('cloud_sync.enabled', 'sync', bool, true, { is_editable: false }),
  def('offline_access.allowed', 'sync', bool, true, { is_editable: false }),
  def('generator.length', 'generator', int(8, 128), 20),
  def('generator.digits', 'generator', bool, true),
  def('generator.symbols', 'generator', bool, true),
];

const BY_KEY = new Map(POLICY_CATALOGUE.map((p) => [p.key, p]));

export const policyDefinition = (key: string): PolicyDefinition | undefined => BY_KEY.get(key);

/** i18n keys of a policy's title and help text, and of each enum value's label. */
export const policyTitleKey = (key: string) => `policy.${key}.title`;
export const policyHelpKey = (key: string) => `policy.${key}.help`;
export const policyValueKey = (value: string) => `policy.value.${value}`;

/** A problem with one value, as an English sentence (the server's description) and an i18n key with values (the console). */
export interface PolicyProblem {
  message: string;
  key: string;
  values?: Record<string, number | string>;
}

/** Why `value` is not allowed for `key`, or null (spec §5: mp.min_length is capped at 1000). */
export function policyValueProblem(key: string, value: unknown): PolicyProblem | null {
  const d = BY_KEY.get(key);
  if (!d) return { message: `Unknown policy ${key}.`, key: 'policy.error.unknown' };
  if (d.readonly) return { message: `${key} is fixed and cannot be changed.`, key: 'policy.error.readonly' };
  const t = d.type;
  if (t.kind === 'boolean' && typeof value !== 'boolean') {
    return { message: `${key} must be on or off.`, key: 'policy.error.boolean' };
  }
  if (t.kind === 'integer' && (typeof value !== 'number' || !Number.isInteger(value) || value < t.min || value > t.max)) {
    return {
      message: `${key} must be a whole number from ${t.min} to ${t.max}.`,
      key: 'policy.error.range',
      values: { min: t.min, max: t.max },
    };
  }
  if (t.kind === 'enum' && (typeof value !== 'string' || !t.values.includes(value))) {
    return { message: `${key} must be one of ${t.values.join(', ')}.`, key: 'policy.error.choice' };
  }
  return null;
}

/** One team-policy entry: the value and, optionally, the members (emails) it is limited to or spares. */
export interface TeamPolicyEntry {
  policy: PolicyValue;
  include?: string[];
  exclude?: string[];
}
export type TeamPolicy = Record<string, TeamPolicyEntry>;
export type GroupPolicy = Record<string, PolicyValue>;
export type NotEnforced = Record<string, boolean>;

/** Whether a team entry applies to a member: include (when not empty) limits it, exclude spares. */
export function entryApplies(entry: TeamPolicyEntry, email: string): boolean {
  const e = email.toLowerCase();
  if (entry.include?.length && !entry.include.some((x) => x.toLowerCase() === e)) return false;
  return !entry.exclude?.some((x) => x.toLowerCase() === e);
}

export type PolicyChangeKind = 'added' | 'removed' | 'changed';
export interface PolicyChange {
  key: string;
  kind: PolicyChangeKind;
  before: unknown;
  after: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The per-key difference of two flat maps, in catalogue order then key order: what the history detail shows. */
export function diffPolicyMaps(before: Record<string, unknown>, after: Record<string, unknown>): PolicyChange[] {
  const order = (k: string) => {
    const i = POLICY_CATALOGUE.findIndex((p) => p.key === k);
    return i < 0 ? POLICY_CATALOGUE.length : i;
  };
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(
    (a, b) => order(a) - order(b) || a.localeCompare(b),
  );
  const changes: PolicyChange[] = [];
  for (const key of keys) {
    const has = [key in before, key in after];
    if (has[0] && !has[1]) changes.push({ key, kind: 'removed', before: before[key], after: null });
    else if (!has[0] && has[1]) changes.push({ key, kind: 'added', before: null, after: after[key] });
    else if (!same(before[key], after[key])) changes.push({ key, kind: 'changed', before: before[key], after: after[key] });
  }
  return changes;
}
