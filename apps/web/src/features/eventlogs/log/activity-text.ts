import { activityDescriptionKey, activityLabelKey, catalogueEntry, componentLabelKey } from '@latchkey/contracts/client';
import i18n from 'i18next';
import type { EventRow } from '../api.ts';

/** An activity as the console names it: the catalogue's label in the admin's language, or the code the catalogue lacks. */
export function activityLabel(code: string): string {
  const key = activityLabelKey(code);
  return i18n.exists(key) ? i18n.t(key) : code;
}

/** A component's name (`groups` → "Groups"); an unknown one as recorded. */
export function componentLabel(component: string): string {
  const key = componentLabelKey(component);
  return i18n.exists(key) ? i18n.t(key) : component;
}

const shown = (value: unknown): string =>
  value === undefined || value === null || value === '' ? '–' : Array.isArray(value) ? value.join(', ') : String(value);

/** The one-line description with the event's own values (actor, target, its detail fields); empty for an undeclared code. */
export function activityDescription(event: Pick<EventRow, 'activity' | 'actor' | 'target' | 'detail'>): string {
  const entry = catalogueEntry(event.activity);
  if (!entry) return '';
  const detail = (event.detail ?? {}) as Record<string, unknown>;
  const values = Object.fromEntries(entry.fields.map((f) => [f, shown(detail[f])]));
  return i18n.t(activityDescriptionKey(event.activity), { ...values, actor: shown(event.actor), target: shown(event.target) });
}

/** The Activities filter's options: labels, grouped by component, in the catalogue's order of components. */
export function activityOptions(codes: readonly string[]): { group: string; items: { value: string; label: string }[] }[] {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const code of codes) {
    const group = componentLabel(catalogueEntry(code)?.component ?? code.split('.')[0] ?? code);
    groups.set(group, [...(groups.get(group) ?? []), { value: code, label: activityLabel(code) }]);
  }
  return [...groups].map(([group, items]) => ({ group, items: items.sort((a, b) => a.label.localeCompare(b.label)) }));
}
