import type { ClipboardEvent } from 'react';

/** Longest values the server accepts (the contracts' schemas), for fields that have no constant of their own. */
export const EMAIL_MAX = 254;
export const SEARCH_MAX = 100;
export const PASSWORD_MAX = 1024;
export const URL_MAX = 300;
export const SETUP_KEY_MAX = 500;

/** Whitespace around a pasted value goes (emails, addresses and keys are trimmed, spec §5). */
export const trimPasted = (text: string): string => text.trim();

/**
 * A text field's maximum length (spec §5): typing stops at it, and a paste is cut to what still
 * fits. With `restrict`, the field's restriction is applied to the pasted text only, before the
 * cut (what was already typed is left as it is).
 */
export function limitProps(max: number, restrict?: (pasted: string) => string) {
  return {
    maxLength: max,
    onPaste: restrict
      ? (event: ClipboardEvent<HTMLInputElement>) => {
          const input = event.currentTarget;
          event.preventDefault();
          const start = input.selectionStart ?? input.value.length;
          const end = input.selectionEnd ?? start;
          const room = max - (input.value.length - (end - start));
          const text = restrict(event.clipboardData.getData('text')).slice(0, Math.max(0, room));
          // Set through the element's own setter, then the usual input event: React (and the
          // form) see the new value as if it had been typed.
          const next = input.value.slice(0, start) + text + input.value.slice(end);
          Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')?.set?.call(input, next);
          input.setSelectionRange(start + text.length, start + text.length);
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }
      : undefined,
  };
}
