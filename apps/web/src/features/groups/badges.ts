import { BADGES_SHOWN } from '@latchkey/contracts/client';

/** Spec §9: a badge's text cut to `max` characters with an ellipsis (the full text goes in a tooltip). */
export const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The badges shown first and how many more there are (`+n more`), of `total` items. */
export function splitBadges<T>(items: readonly T[], total = items.length): { shown: T[]; rest: T[]; more: number } {
  const shown = items.slice(0, BADGES_SHOWN);
  return { shown, rest: items.slice(BADGES_SHOWN), more: Math.max(0, total - shown.length) };
}
