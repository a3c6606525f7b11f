// The process tree of a Hearth under a bench (Linux: reads /proc): its start-up type check runs
// in a child process, which exits 30 s after its last check.
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Every process's parent, from one pass over /proc. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // ppid is the 4th field, after the command name in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return parentOf;
}

/** The processes below `pid`, at any depth (`npm start` → Hearth → its type check). */
export function descendantsOf(pid: number): number[] {
  const parentOf = parents();
  const below = new Set([pid]);
  // Children have higher pids than their parents as a rule, but not after pid wrap-around: repeat until nothing is added.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, parent] of parentOf) {
      if (below.has(parent) && !below.has(child)) {
        below.add(child);
        grew = true;
      }
    }
  }
  below.delete(pid);
  return [...below];
}

/**
 * Waits (up to two minutes) until the start-up type check's child process has exited: until
 * `pid` has `hearthProcesses` descendants left (0 for `hearth start`, 1 for `npm start`, whose
 * Hearth is npm's child).
 */
export async function typeCheckDone(pid: number, hearthProcesses = 0): Promise<number> {
  const started = performance.now();
  while (descendantsOf(pid).length > hearthProcesses && performance.now() - started < 120_000) await sleep(250);
  return (performance.now() - started) / 1000;
}
