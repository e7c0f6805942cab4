import { describe, expect, it } from 'vitest';
import { addableLicences, isBlockedNumberKey, pastedQuantity, quantityProblem } from './rules.ts';

describe('licence quantity (spec §5)', () => {
  it('blocks e, E, +, - and . in the number input', () => {
    expect(['e', 'E', '+', '-', '.'].map((k) => isBlockedNumberKey(k))).toEqual([true, true, true, true, true]);
    expect(isBlockedNumberKey('5')).toBe(false);
    expect(isBlockedNumberKey('-', { minus: true })).toBe(false);
  });
  it('cuts a paste to the maximum length and refuses one that is not digits', () => {
    expect(pastedQuantity('', '123456', 3)).toBe('123');
    expect(pastedQuantity('4', '99', 3)).toBe('499');
    expect(pastedQuantity('', '1e3', 3)).toBeNull();
    expect(pastedQuantity('', '-5', 3)).toBeNull();
  });
  it('a whole number from 1 to 500 − total', () => {
    expect(addableLicences(480)).toBe(20);
    expect(addableLicences(500)).toBe(0);
    expect(addableLicences(-1)).toBe(0);
    expect(quantityProblem('', 20)?.key).toBe('this field is required');
    expect(quantityProblem('0', 20)?.key).toBe('billing.quantity.min');
    expect(quantityProblem('21', 20)).toEqual({ key: 'billing.quantity.max', values: { max: 20 } });
    expect(quantityProblem('1', 0)?.key).toBe('billing.quantity.none_left');
    expect(quantityProblem('1.5', 20)?.key).toBe('billing.quantity.whole');
    expect(quantityProblem('20', 20)).toBeNull();
  });
});
