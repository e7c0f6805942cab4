import { STEPS_WITH_CLOUD, STEPS_WITHOUT_CLOUD, wizardSteps } from '@latchkey/contracts/client';
import { describe, expect, test } from 'vitest';
import { detectOs, progressAt, stateOnLogout, stepIndexOf } from './flow.ts';

describe('onboarding steps (spec §4, §9)', () => {
  test('with a cloud: 0, 1, 1.1, 2, 3 and their flags; without: 0, 1, 2', () => {
    expect(wizardSteps('google_drive').map((s) => s.number)).toEqual(['0', '1', '1.1', '2', '3']);
    expect(wizardSteps('one_drive')).toBe(STEPS_WITH_CLOUD);
    expect(wizardSteps('none').map((s) => s.number)).toEqual(['0', '1', '2']);
    expect(wizardSteps('')).toBe(STEPS_WITHOUT_CLOUD);
    const help = STEPS_WITH_CLOUD[2];
    expect(help).toMatchObject({ stage: 'admin_help', back: true, forward: false, skip: false });
    expect(STEPS_WITH_CLOUD.filter((s) => s.skip).map((s) => s.stage)).toEqual(['setup']);
    expect(STEPS_WITHOUT_CLOUD.filter((s) => s.skip).map((s) => s.stage)).toEqual(['setup']);
    expect(STEPS_WITH_CLOUD[0]?.back).toBe(false);
  });

  test('progress counts the steps the admin walks: the whole steps minus welcome and finish (1.1 is part of 1)', () => {
    // With a cloud: welcome, then step 1 (add to enterprise, and its admin help 1.1), step 2 (setup), finish.
    expect(STEPS_WITH_CLOUD.map((_, i) => progressAt(STEPS_WITH_CLOUD, i))).toEqual([
      { total: 2, reached: 0, current: null },
      { total: 2, reached: 1, current: 1 },
      { total: 2, reached: 1, current: 1 },
      { total: 2, reached: 2, current: 2 },
      { total: 2, reached: 2, current: null },
    ]);
    expect(STEPS_WITHOUT_CLOUD.map((_, i) => progressAt(STEPS_WITHOUT_CLOUD, i))).toEqual([
      { total: 1, reached: 0, current: null },
      { total: 1, reached: 1, current: 1 },
      { total: 1, reached: 1, current: null },
    ]);
  });

  test('resuming at a saved stage', () => {
    expect(stepIndexOf(STEPS_WITH_CLOUD, 'setup')).toBe(3);
    expect(stepIndexOf(STEPS_WITHOUT_CLOUD, 'setup')).toBe(1);
    expect(stepIndexOf(STEPS_WITHOUT_CLOUD, 'resume')).toBe(0);
  });

  test('logging out saves the stage; the last step finishes; 1.1 saves add to enterprise', () => {
    expect(stateOnLogout(STEPS_WITH_CLOUD[4] as never)).toEqual({ show: false, enable_console: true, stage: 'all_set' });
    expect(stateOnLogout(STEPS_WITH_CLOUD[2] as never)).toEqual({
      show: true,
      enable_console: false,
      stage: 'add_to_enterprise',
    });
    expect(stateOnLogout(STEPS_WITH_CLOUD[3] as never)).toEqual({ show: true, enable_console: false, stage: 'setup' });
  });

  test('the operating system from the browser', () => {
    expect(detectOs('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('windows');
    expect(detectOs('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)')).toBe('macos');
    expect(detectOs('Mozilla/5.0 (X11; Linux x86_64)')).toBe('linux');
    expect(detectOs('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios');
    expect(detectOs('Mozilla/5.0 (Linux; Android 14)')).toBe('android');
    expect(detectOs('Something')).toBeNull();
  });
});
