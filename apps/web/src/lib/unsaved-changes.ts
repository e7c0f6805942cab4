import { useEffect, useRef } from 'react';

/**
 * Unsaved-changes protection (spec §2 Policy), shared by every screen with a form: a screen
 * registers a guard while it is mounted; leaving (in-app navigation, team switch, logout) asks
 * `confirmLeave()` first, and the browser warns before unloading while any guard is dirty.
 */
interface UnsavedGuard {
  isDirty(): boolean;
  /** Saves; resolves false when the save failed (the screen has said why). */
  save(): Promise<boolean>;
  discard(): void;
}

/** Shows the 'Unsaved Changes' dialog; resolves true when the admin may leave. */
export type UnsavedPrompt = (actions: { save: () => Promise<boolean>; discard: () => void }) => Promise<boolean>;

const guards = new Set<UnsavedGuard>();
let prompt: UnsavedPrompt | null = null;

export const setUnsavedPrompt = (fn: UnsavedPrompt | null): void => {
  prompt = fn;
};

export const hasUnsavedChanges = (): boolean => [...guards].some((g) => g.isDirty());

/** Resolves true when nothing is unsaved, or the admin discarded or saved it; false to stay. */
export async function confirmLeave(): Promise<boolean> {
  const dirty = [...guards].filter((g) => g.isDirty());
  if (dirty.length === 0 || !prompt) return true;
  return prompt({
    async save() {
      for (const g of dirty) if (!(await g.save())) return false;
      return true;
    },
    discard() {
      for (const g of dirty) g.discard();
    },
  });
}

/**
 * Registers the calling screen's form while it is mounted. `dirty` is read through a ref, so a
 * decision taken in the dialog applies at once, before React re-renders.
 */
export function useUnsavedChanges(options: {
  dirty: boolean;
  save: () => Promise<boolean>;
  discard: () => void;
  warning: string;
}) {
  const latest = useRef(options);
  latest.current = options;
  const guard = useRef<UnsavedGuard | null>(null);
  guard.current ??= {
    isDirty: () => latest.current.dirty,
    save: async () => {
      const ok = await latest.current.save();
      if (ok) latest.current = { ...latest.current, dirty: false };
      return ok;
    },
    discard: () => {
      latest.current.discard();
      latest.current = { ...latest.current, dirty: false };
    },
  };
  // Registered after every commit, not once: React may tear a screen's effects down and set them
  // up again (e.g. a suspended sibling), and a guard missing for one render would let edits go.
  useEffect(() => {
    const mine = guard.current as UnsavedGuard;
    guards.add(mine);
    return () => {
      guards.delete(mine);
    };
  });
  useEffect(() => {
    if (!options.dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Browsers show their own text; the spec's sentence is kept for those that show ours.
      event.returnValue = latest.current.warning;
      return latest.current.warning;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [options.dirty]);
}
