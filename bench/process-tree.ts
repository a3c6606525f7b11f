// The process tree of a Hearth under a bench (Linux: reads /proc): its start-up type check runs
// in a child process (the JavaScript compiler's exits 30 s after its last check, the native one
// when it is done), beside tsx's esbuild service.
import { existsSync, readdirSync, readFileSync } from "node:fs";
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
 * A type check's process: the JavaScript compiler's worker, or TypeScript's native compiler. Not
 * every child is one: tsx's esbuild service, which compiles the automation files, lives as long
 * as Hearth does, and a count of children waited two minutes for it every time.
 */
const TYPE_CHECK_COMMAND = /type-check-worker|@typescript[\\/]typescript-[^\\/]+[\\/]lib[\\/]tsc/;

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return ""; // Ended while we looked.
  }
}

/**
 * Waits (up to two minutes) until no type check runs below `pid`; returns the seconds it waited.
 * With `keptFile` (DATA_DIR's automations-typecheck.json, for a start in an empty DATA_DIR) it
 * first waits for the check to have written its result there: a look before the check's process
 * has started would see none and answer at once.
 */
export async function typeCheckDone(pid: number, keptFile?: string): Promise<number> {
  const started = performance.now();
  const inTime = () => performance.now() - started < 120_000;
  const checking = () => descendantsOf(pid).some((child) => TYPE_CHECK_COMMAND.test(commandLine(child)));
  while (keptFile && !existsSync(keptFile) && inTime()) await sleep(250);
  while (checking() && inTime()) await sleep(250);
  return (performance.now() - started) / 1000;
}
