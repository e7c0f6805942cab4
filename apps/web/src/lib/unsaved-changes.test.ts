import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { confirmLeave, hasUnsavedChanges, setUnsavedPrompt, type UnsavedPrompt, useUnsavedChanges } from './unsaved-changes.ts';

afterEach(() => setUnsavedPrompt(null));

function mount(save: () => Promise<boolean>) {
  const calls: string[] = [];
  const hook = renderHook(() =>
    useUnsavedChanges({
      dirty: true,
      save: async () => {
        calls.push('save');
        return save();
      },
      discard: () => calls.push('discard'),
      warning: 'w',
    }),
  );
  return { calls, hook };
}

describe('unsaved changes', () => {
  test('nothing dirty: leaving is allowed without asking', async () => {
    let asked = false;
    setUnsavedPrompt(async () => {
      asked = true;
      return false;
    });
    expect(await confirmLeave()).toBe(true);
    expect(asked).toBe(false);
  });

  test('cancel stays; discard leaves and cleans; a failed save stays; a good save leaves', async () => {
    const answer =
      (choice: 'cancel' | 'discard' | 'save'): UnsavedPrompt =>
      async (actions) => {
        if (choice === 'cancel') return false;
        if (choice === 'discard') {
          actions.discard();
          return true;
        }
        return actions.save();
      };
    const failing = mount(async () => false);
    setUnsavedPrompt(answer('cancel'));
    expect(await confirmLeave()).toBe(false);
    setUnsavedPrompt(answer('save'));
    expect(await confirmLeave()).toBe(false);
    expect(hasUnsavedChanges()).toBe(true);
    setUnsavedPrompt(answer('discard'));
    expect(await confirmLeave()).toBe(true);
    expect(failing.calls).toEqual(['save', 'discard']);
    // Discarded: the next leave does not ask until the screen renders dirty again.
    expect(hasUnsavedChanges()).toBe(false);
    failing.hook.unmount();

    const good = mount(async () => true);
    setUnsavedPrompt(answer('save'));
    expect(await confirmLeave()).toBe(true);
    expect(hasUnsavedChanges()).toBe(false);
    good.hook.unmount();
  });

  test('the browser warns before unloading while dirty', () => {
    const { hook } = mount(async () => true);
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    hook.unmount();
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });
});
