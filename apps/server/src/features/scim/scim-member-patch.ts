import { isUuid } from './scim.repository.ts';
import { getProp } from './scim-filter.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Okta's removal of one member: `members[value eq "<id>"]`. */
const MEMBER_FILTER = /^\s*members\s*\[\s*value\s+eq\s+"([^"\\]*)"\s*\]\s*$/i;

/**
 * A group PatchOp that only adds and removes members (what Entra ID and Okta send for membership:
 * `add`/`remove` on `members` with a value list, Entra's `$ref: null` items included, or Okta's
 * `members[value eq "id"]`), as the net members to add and to remove, in the order of the
 * operations; null for anything else, which {@link applyPatch} then handles over the whole
 * resource. Lets a PATCH of 10,000 members touch those members only, never load the group's.
 * Values are what applyPatch would do with them: added ids compared case-insensitively (as
 * any add), removed ones exactly (ids are lower-case; another spelling removes nothing).
 */
export function memberDelta(body: unknown): { add: string[]; remove: string[] } | null {
  if (!isObj(body)) return null;
  const ops = getProp(body, 'Operations');
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > 1000) return null;
  const add = new Set<string>();
  const remove = new Set<string>();
  for (const raw of ops) {
    if (!isObj(raw)) return null;
    const opName = getProp(raw, 'op');
    const op = typeof opName === 'string' ? opName.toLowerCase() : '';
    const path = getProp(raw, 'path');
    const value = getProp(raw, 'value');
    if (typeof path !== 'string') return null;
    let ids: string[];
    const one = MEMBER_FILTER.exec(path);
    if (one && op === 'remove' && value === undefined) ids = [one[1] as string];
    else if (path.trim().toLowerCase() === 'members' && (op === 'add' || op === 'remove') && Array.isArray(value)) {
      const values = value.map((m) => (isObj(m) ? getProp(m, 'value') : undefined));
      if (values.some((v) => typeof v !== 'string')) return null;
      ids = values as string[];
    } else return null;
    for (const raw of ids) {
      if (op === 'add') {
        const id = raw.toLowerCase();
        remove.delete(id);
        add.add(id);
      } else {
        add.delete(raw);
        if (isUuid(raw) && raw === raw.toLowerCase()) remove.add(raw);
      }
    }
  }
  return { add: [...add], remove: [...remove] };
}
