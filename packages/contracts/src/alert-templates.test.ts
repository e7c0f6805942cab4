import { describe, expect, it } from 'vitest';
import { ALERT_TEMPLATES } from './alert-templates.ts';
import { catalogueEntry } from './event-catalogue/index.ts';

describe('the built-in alert templates', () => {
  it('name only activity codes the catalogue declares (a template watching a code nobody writes never fires)', () => {
    const named = ALERT_TEMPLATES.flatMap((t) => t.filters.activities.map((code) => `${t.key}: ${code}`));
    expect(named.length).toBeGreaterThanOrEqual(ALERT_TEMPLATES.length);
    expect(named.filter((entry) => !catalogueEntry(entry.split(': ')[1] ?? ''))).toEqual([]);
  });

  it('each watch at least one activity, under a key of their own', () => {
    for (const t of ALERT_TEMPLATES) expect(t.filters.activities.length, t.key).toBeGreaterThan(0);
    expect(new Set(ALERT_TEMPLATES.map((t) => t.key)).size).toBe(ALERT_TEMPLATES.length);
  });
});
