/**
 * What the benches read of processes on Linux (`/proc`): CPU time, resident memory, children.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ: 100 on every Linux we run on). */
const TICKS_PER_SECOND = 100;

/** The fields of `/proc/<pid>/stat` after the command name (field 3 onwards). */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // the process ended
  }
}

/** The parent of `pid`, or null when it has ended. */
export function parentOf(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : null;
}

/** User + system CPU seconds `pid` has used so far (0 once it has ended). */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
}

/** Resident memory of `pid` in MB (VmRSS), or null once it has ended. */
export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Every running process id. */
export function allPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** `pid` and all its descendants. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of allPids()) {
    const parent = parentOf(p);
    if (parent === null) continue;
    children.set(parent, [...(children.get(parent) ?? []), p]);
  }
  const tree: number[] = [];
  const walk = (p: number) => {
    tree.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return tree;
}
