import { policyDefinition, policyValueKey } from '@latchkey/contracts/client';
import { formatNumber } from '../../lib/format.ts';

type T = (key: string, values?: Record<string, unknown>) => string;

/** A policy value as words: On / Off, a choice's label, or a number in the current language. */
export function formatValue(t: T, value: unknown): string {
  if (typeof value === 'boolean') return t(value ? 'policy.value.on' : 'policy.value.off');
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') return t(policyValueKey(value));
  return '—';
}

/**
 * A history value: a bare value, a team entry ({policy, include, exclude}) or a group entry
 * ({policy, not_enforced}), said in one line; the priority pseudo-key is a plain number.
 */
export function formatHistoryValue(t: T, key: string, value: unknown): string {
  if (value === null || value === undefined) return t('policy.not_set');
  if (key === 'priority_level' || !policyDefinition(key)) return typeof value === 'number' ? formatNumber(value) : String(value);
  if (typeof value !== 'object') return formatValue(t, value);
  const entry = value as { policy: unknown; include?: string[]; exclude?: string[]; not_enforced?: boolean };
  const parts = [formatValue(t, entry.policy)];
  if (entry.include?.length) parts.push(t('policy.scope.only', { emails: entry.include.join(', ') }));
  if (entry.exclude?.length) parts.push(t('policy.scope.except', { emails: entry.exclude.join(', ') }));
  if (entry.not_enforced) parts.push(t('policy.not_enforced'));
  return parts.join(' · ');
}

export const policyLabel = (t: T, key: string): string =>
  key === 'priority_level' ? t('policy.priority') : policyDefinition(key) ? t(`policy.${key}.title`) : key;
