import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc tells it: its parent, its process group, and whether it has ended (a zombie). */
interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  ended: boolean;
}

function processes(): Proc[] {
  const all: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name (2nd field) may hold spaces and parentheses: the fields after it follow the last ')'.
      const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid), ended: state === 'Z' });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return all;
}

/** Every living process below `pid`, however deep. */
export function descendants(pid: number): Proc[] {
  const all = processes().filter((p) => !p.ended);
  const found: Proc[] = [];
  let parents = new Set([pid]);
  while (parents.size) {
    const children = all.filter((p) => parents.has(p.ppid));
    found.push(...children);
    parents = new Set(children.map((p) => p.pid));
  }
  return found;
}

/** What of `pids`, or of any process in `groups`, is still alive. */
export function survivors(pids: Iterable<number>, groups: Iterable<number>): Proc[] {
  const pidSet = new Set(pids);
  const groupSet = new Set(groups);
  return processes().filter((p) => !p.ended && (pidSet.has(p.pid) || groupSet.has(p.pgid)));
}
