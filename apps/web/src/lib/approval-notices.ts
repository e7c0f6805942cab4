import { useSyncExternalStore } from 'react';
import type { ApprovalRequired } from './api-error.ts';

/** A change this tab asked for that waits for another super admin, and the screen it was asked on. */
export interface HeldChange {
  requestId: string;
  requestedAt: string;
  /** The console path (the hash route) the change was made on. */
  path: string;
}

let held: readonly HeldChange[] = [];
const listeners = new Set<() => void>();

const currentPath = (): string => (typeof location === 'undefined' ? '' : location.hash.replace(/^#/, '').split('?')[0] || '/');

/**
 * Remembers a held change for the screen it was made on (lib/api.ts calls this for every 202
 * `approval_required`), so that screen says it waits instead of a success toast.
 */
export function noteApprovalRequired(error: ApprovalRequired, path: string = currentPath()): void {
  held = [
    ...held.filter((h) => h.requestId !== error.requestId),
    { requestId: error.requestId, requestedAt: error.requestedAt, path },
  ];
  for (const listener of listeners) listener();
}

/** Forgets a held change once it is decided (approved, rejected, withdrawn, expired). */
export function forgetHeldChange(requestId: string): void {
  if (!held.some((h) => h.requestId === requestId)) return;
  held = held.filter((h) => h.requestId !== requestId);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Every held change this tab made, newest last. */
export const heldChanges = (): readonly HeldChange[] => held;

/** The held changes, re-rendering when one is added or forgotten. */
export const useHeldChanges = (): readonly HeldChange[] => useSyncExternalStore(subscribe, heldChanges);
