import { type EventRecord, EXPORT_COLUMNS } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubDb } from '../../testing/hub-fixture.ts';
import { checkChain, GENESIS_HASH } from './chain.ts';
import { createEventsService } from './eventlogs.service.ts';

let db: Db;

beforeAll(async () => {
  db = await createHubDb();
});
afterAll(async () => {
  await db.close();
});

describe('the export, formatted by the database', () => {
  const team = 'export-format';
  const exported = async (format: 'csv' | 'ndjson', filters: unknown = {}) => {
    let out = '';
    const n = await createEventsService(db, { selfHosted: true }).export(team, format, filters, async (chunk) => {
      out += chunk;
    });
    return { n, out };
  };

  beforeAll(async () => {
    const service = createEventsService(db, { selfHosted: true });
    await service.record(team, [
      { actor: 'plain@x.example', actor_type: 'admin', activity: 'member.invited', component: 'members', target: 'a@x.example' },
      { actor: 'q@x.example', actor_type: 'admin', activity: 'group.renamed', component: 'groups', target: 'Sales, "EMEA"' },
      { actor: 'f@x.example', actor_type: 'admin', activity: 'group.renamed', component: 'groups', target: '=HYPERLINK("x")' },
      {
        actor: 'n@x.example',
        actor_type: 'member',
        activity: 'app.item_created',
        component: 'app',
        target: 'two\nlines',
        detail: { k: 'v' },
      },
    ]);
  });

  it('quotes cells with a quote, comma or line break, and defuses formulas', async () => {
    const { n, out } = await exported('csv');
    expect(n).toBe(4);
    expect(out).toContain(',"Sales, ""EMEA""",');
    expect(out).toContain(`,"'=HYPERLINK(""x"")",`);
    expect(out).toContain(',"two\nlines",');
    expect(out).toContain(',"{""k"": ""v""}",');
    const first = out.split('\n')[1]?.split(',') ?? [];
    expect(first[0]).toBe('1');
    expect(first[2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(first[7]).toBe('Member invited');
    expect(first[9]).toBe('a@x.example');
  });

  it('writes NDJSON in the export columns’ order that a third party re-verifies, across batches', async () => {
    // More rows than one batch (20,000) so the keyset continues where a batch ended.
    const many = Array.from({ length: 20_050 }, (_, i) => ({
      actor: 'bulk@x.example',
      actor_type: 'system' as const,
      activity: 'member.updated' as const,
      component: 'members',
      target: `row ${i}`,
    }));
    await createEventsService(db, { selfHosted: true }).record(team, many);
    const { n, out } = await exported('ndjson');
    expect(n).toBe(20_054);
    const rows = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EventRecord);
    expect(rows).toHaveLength(20_054);
    expect(Object.keys(rows[0] ?? {})).toEqual([...EXPORT_COLUMNS]);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(
      checkChain(
        rows.map((r) => ({ ...r, team_slug: team })),
        { seq: 1, prevHash: GENESIS_HASH },
      ).problems,
    ).toEqual([]);
    const filtered = await exported('ndjson', { components: ['groups'] });
    expect(filtered.n).toBe(2);
  });
});
