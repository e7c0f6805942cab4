/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APPROVAL_ACTION_CODES } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { AREAS, actionLabel, areaOf, isGatedScreen, madeOn } from './actions.ts';

const en = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../locales/en.json'), 'utf8')) as Record<
  string,
  string
>;

describe('what the console says about each action class', () => {
  it('every action class of the contract has a label and belongs to an area by its own prefix', () => {
    for (const action of APPROVAL_ACTION_CODES) {
      expect(en[actionLabel(action)], action).toBeTruthy();
      const prefix = action.split('.')[0];
      // Only the SIEM's actions sit under another name (beside the event logs').
      expect(areaOf(action), action).toBe(prefix === 'siem' ? 'eventlogs' : prefix);
    }
    for (const area of AREAS) expect(en[`approvals.area.${area}`], area).toBeTruthy();
  });

  it('finds the screen an action is made on, and its pages below it', () => {
    expect(madeOn('policies.relax', '/policies')).toBe(true);
    expect(madeOn('policies.restore', '/policies/history/12')).toBe(true);
    expect(madeOn('siem.off', '/settings/eventlogs')).toBe(true);
    expect(madeOn('admins.remove', '/settings/manage-administrators')).toBe(true);
    expect(madeOn('admins.remove', '/policies')).toBe(false);
    // A screen whose name merely starts like another's is not below it.
    expect(madeOn('policies.relax', '/policiesx')).toBe(false);
    expect(isGatedScreen('/dashboard')).toBe(false);
    expect(isGatedScreen('/users')).toBe(true);
  });
});
