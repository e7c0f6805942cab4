import { describe, expect, it } from 'vitest';
import { edgeAnchor, integerTicks, monthLabelEvery } from './Charts.tsx';

describe('provisioning chart layout', () => {
  it('anchors the first month label to grow right, the last to grow left, the others centred', () => {
    expect([0, 1, 5, 11].map((i) => edgeAnchor(i, 12))).toEqual(['start', 'middle', 'middle', 'end']);
    expect(edgeAnchor(0, 1)).toBe('middle');
  });

  it('shows fewer month labels when they are long or the chart is narrow', () => {
    const short = Array.from({ length: 12 }, () => 'Nov 26');
    const arabic = Array.from({ length: 12 }, () => 'أغسطس 26');
    expect(monthLabelEvery(short, 1200)).toBe(1);
    expect(monthLabelEvery(short, 546)).toBe(2);
    expect(monthLabelEvery(arabic, 236)).toBeGreaterThan(monthLabelEvery(short, 236));
    // Two shown labels are at least one and a half labels apart.
    const every = monthLabelEvery(arabic, 236);
    expect((every * 236) / 11).toBeGreaterThanOrEqual((8 * 6.5 + 8) * 1.5);
  });

  it('keeps whole-number ticks from 0', () => {
    expect(integerTicks(41)).toEqual([0, 11, 22, 33, 44]);
  });
});
