import { describe, expect, it } from 'vitest';
import { digitsOnly } from './CodeBoxes.tsx';

describe('pasted codes (spec §5)', () => {
  it('keeps digits only, six at most', () => {
    expect(digitsOnly(' 12-34 56 ')).toBe('123456');
    expect(digitsOnly('code: 9876543')).toBe('987654');
    expect(digitsOnly('abc')).toBe('');
  });
});
