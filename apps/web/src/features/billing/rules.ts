import { type BillStateDisplay, MAX_LICENCES, maxLicencesToAdd } from '@latchkey/contracts/client';

/** Spec §5 number inputs: e, E and + always blocked; - and . unless allowed. */
export function isBlockedNumberKey(key: string, allow: { minus?: boolean; decimal?: boolean } = {}): boolean {
  if (key === 'e' || key === 'E' || key === '+') return true;
  if (key === '-' && !allow.minus) return true;
  if (key === '.' && !allow.decimal) return true;
  return false;
}

/**
 * Spec §5: a paste is cut to the maximum length, and the restriction applies to pasted text: a
 * paste with anything but digits is refused (null).
 */
export function pastedQuantity(current: string, pasted: string, maxLength: number): string | null {
  const text = pasted.trim();
  if (!/^\d*$/.test(text)) return null;
  return (current + text).slice(0, maxLength);
}

/** Digits a licence quantity may have: 500 has three. */
export const QUANTITY_MAX_LENGTH = String(MAX_LICENCES).length;

/** The message key of a quantity's problem, or null (spec §5: a whole number from 1 to max). */
export function quantityProblem(value: string, max: number): { key: string; values?: Record<string, string | number> } | null {
  if (value.trim() === '') return { key: 'this field is required' };
  if (!/^\d+$/.test(value.trim())) return { key: 'billing.quantity.whole' };
  const n = Number(value);
  if (n < 1) return { key: 'billing.quantity.min' };
  if (n > max) return max <= 0 ? { key: 'billing.quantity.none_left' } : { key: 'billing.quantity.max', values: { max } };
  return null;
}

/** Spec §5: 1 to 500 − current total. */
export const addableLicences = maxLicencesToAdd;

/** The badge colour of each displayed state (a word is always shown beside it). */
export const STATE_COLORS: Record<BillStateDisplay, string> = { active: 'teal', grace: 'yellow', ended: 'red', trial: 'blue' };
