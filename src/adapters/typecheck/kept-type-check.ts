import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { TypeDiagnostic } from "../../ports/type-checker.js";
import type { TypeCheckResult } from "./typescript-checker.js";

/**
 * The last background type check, kept in a file so that a start whose automations, tsconfig,
 * Hearth, libraries and compiler are as they were answers from it instead of starting the
 * compiler: its process (about 70 MB for the native compiler, 150 MB and more for the
 * JavaScript one) is memory and CPU a small board should pay only when something it reads
 * changed. A file is taken as unchanged while its size and modification time are.
 */

const FORMAT = 1;

const diagnostic = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  code: z.number().int(),
  message: z.string(),
});

const keptCheck = z.object({
  format: z.literal(FORMAT),
  roots: z.array(z.string()),
  read: z.array(z.object({ file: z.string(), size: z.number(), mtimeMs: z.number() })),
  diagnostics: z.array(diagnostic),
});

/**
 * Files changed this close before the check started may have been read in either version
 * (file systems with coarse timestamps record a save a moment later): such a check is not kept.
 */
const SETTLE_MS = 2_000;

async function fingerprint(file: string): Promise<{ size: number; mtimeMs: number } | null> {
  try {
    const stats = await stat(file);
    return { size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    return null;
  }
}

function sameRoots(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((file, index) => file === b[index]);
}

/**
 * The kept diagnostics of a check of exactly `roots` (absolute, sorted), or null when there
 * is none, it is unreadable, or any file it read has changed or gone.
 */
export async function readKeptCheck(file: string, roots: readonly string[]): Promise<TypeDiagnostic[] | null> {
  let parsed: z.infer<typeof keptCheck>;
  try {
    const result = keptCheck.safeParse(JSON.parse(await readFile(file, "utf8")));
    if (!result.success) return null;
    parsed = result.data;
  } catch {
    return null;
  }
  if (!sameRoots(parsed.roots, roots)) return null;
  const now = await Promise.all(parsed.read.map((entry) => fingerprint(entry.file)));
  const unchanged = parsed.read.every(
    (entry, index) => now[index]?.size === entry.size && now[index]?.mtimeMs === entry.mtimeMs,
  );
  return unchanged ? parsed.diagnostics : null;
}

/**
 * Keeps a check of `roots` that started at `startedAt` and read `read`, unless one of those
 * files changed after (or just before) it started. Written whole or not at all (a new file
 * renamed over the old); a failure to write only costs the next start a check.
 */
export async function keepCheck(
  file: string,
  check: {
    roots: readonly string[];
    read: readonly string[];
    diagnostics: readonly TypeDiagnostic[];
    startedAt: number;
  },
): Promise<void> {
  const read = await Promise.all(check.read.map(async (entry) => ({ file: entry, stamp: await fingerprint(entry) })));
  if (read.some((entry) => entry.stamp === null || entry.stamp.mtimeMs >= check.startedAt - SETTLE_MS)) {
    await rm(file, { force: true }).catch(() => undefined);
    return;
  }
  const content: z.infer<typeof keptCheck> = {
    format: FORMAT,
    roots: [...check.roots],
    read: read.map((entry) => ({ file: entry.file, size: entry.stamp?.size ?? 0, mtimeMs: entry.stamp?.mtimeMs ?? 0 })),
    diagnostics: [...check.diagnostics],
  };
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(temporary, JSON.stringify(content));
    await rename(temporary, file);
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/**
 * The kept check in front of a checker: the first check (a start's) answers from the file when
 * nothing it read changed; every check that runs is kept. Without a file it only runs checks.
 */
export class CheckKeeper {
  private consulted = false;

  constructor(private readonly file: string | undefined) {}

  async check(
    files: readonly string[],
    run: (files: readonly string[]) => Promise<TypeCheckResult>,
  ): Promise<TypeDiagnostic[]> {
    const roots = files.map((file) => path.resolve(file)).sort();
    // Only a start's check can match the kept one: every later check follows an edit.
    if (this.file && !this.consulted) {
      this.consulted = true;
      const kept = await readKeptCheck(this.file, roots);
      if (kept) return kept;
    }
    const startedAt = Date.now();
    const { diagnostics, read } = await run(files);
    if (this.file) await keepCheck(this.file, { roots, read, diagnostics, startedAt });
    return diagnostics;
  }
}
