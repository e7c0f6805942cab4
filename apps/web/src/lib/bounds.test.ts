import { describe, expect, it } from 'vitest';
import { within } from './bounds.ts';

describe('number input bounds', () => {
  it('accepts whole numbers within bounds only', () => {
    const b = { min: 5, max: 10080 };
    expect(within(5, b)).toBe(true);
    expect(within(10080, b)).toBe(true);
    expect(within(4, b)).toBe(false);
    expect(within(90.5, b)).toBe(false);
    expect(within('90', b)).toBe(false);
    expect(within(undefined, b)).toBe(false);
  });
});
