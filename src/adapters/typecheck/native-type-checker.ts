import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TypeChecker, TypeDiagnostic } from "../../ports/type-checker.js";
import { hearthTypePaths } from "./hearth-types.js";
import { CheckKeeper } from "./kept-type-check.js";
import type { TypeCheckResult } from "./typescript-checker.js";

/** The release of the native compiler Hearth depends on (package.json's optionalDependencies). */
export const NATIVE_COMPILER_VERSION = "7.0.2";

/**
 * The native TypeScript compiler (TypeScript 7, written in Go) for this platform, or null where
 * npm installed none (a platform it has no build for): the caller then checks with the
 * `typescript` package's JavaScript compiler.
 */
export function nativeCompilerPath(): string | null {
  try {
    const manifest = createRequire(import.meta.url).resolve(
      `@typescript/typescript-${process.platform}-${process.arch}/package.json`,
    );
    const binary = path.join(path.dirname(manifest), "lib", process.platform === "win32" ? "tsc.exe" : "tsc");
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** What a check does when the native compiler cannot take a project's options. */
export interface FallbackChecker {
  checkReading(files: readonly string[]): Promise<TypeCheckResult>;
  close?(): Promise<void>;
}

export interface NativeTypeCheckerOptions {
  /** The compiler's executable ({@link nativeCompilerPath}). */
  compiler: string;
  /** A file that keeps the last check (see WorkerTypeChecker). */
  keptIn?: string;
  /**
   * Checks a project whose tsconfig uses options TypeScript 7 removed (`moduleResolution: node`,
   * `baseUrl`, `target: ES5`, …), which the JavaScript compiler still takes.
   */
  fallback?: FallbackChecker;
}

/** How spawning an executable fails when it cannot run on this machine at all. */
const SPAWN_FAILURES = new Set(["ENOENT", "EACCES", "ENOEXEC", "EPERM", "EBADARCH"]);

/** Most output a check may print before it is stopped: far above any real project's errors. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * An error about the project's options (TS5xxx, reported on the tsconfig.json or without a
 * file): an option TypeScript 7 removed, such as `moduleResolution: node` or `baseUrl`, or one
 * it does not know. It then checks nothing else, so the JavaScript compiler, which still takes
 * those options, checks such a project instead.
 */
function optionsError(diagnostic: TypeDiagnostic, roots: ReadonlySet<string>): boolean {
  return diagnostic.code >= 5000 && diagnostic.code < 6000 && !roots.has(diagnostic.file);
}

/**
 * Type checks with the native TypeScript compiler, one short-lived process per check: for the
 * example automations it peaks at about 70 MB and answers in a quarter of a second, where the
 * JavaScript compiler's process holds 150 MB for 2-3 s and is kept 30 s for the next check
 * (docs/performance.md). Semantics are the JavaScript checker's: the nearest tsconfig.json's
 * compiler options (not its file list) over exactly the automation files, else strict
 * defaults; only diagnostics in those files (or global ones) are reported.
 */
export class NativeTypeChecker implements TypeChecker {
  private readonly keeper: CheckKeeper;
  private readonly running = new Set<ChildProcess>();
  private closed = false;

  constructor(private readonly options: NativeTypeCheckerOptions) {
    this.keeper = new CheckKeeper(options.keptIn);
  }

  check(files: readonly string[]): Promise<TypeDiagnostic[]> {
    return this.keeper.check(files, (roots) => this.checkReading(roots));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const child of this.running) child.kill();
    await this.options.fallback?.close?.();
  }

  /** The check, and every file it depended on: the compiler, the tsconfig and every file the program read. */
  async checkReading(files: readonly string[]): Promise<TypeCheckResult> {
    if (files.length === 0) return { diagnostics: [], read: [] };
    try {
      return await this.checkNatively(files);
    } catch (error) {
      // A compiler that cannot be started here (gone, not executable, built for another
      // machine): the JavaScript compiler can still check.
      const code = (error as NodeJS.ErrnoException).code;
      if (this.options.fallback && !this.closed && typeof code === "string" && SPAWN_FAILURES.has(code))
        return this.options.fallback.checkReading(files);
      throw error;
    }
  }

  private async checkNatively(files: readonly string[]): Promise<TypeCheckResult> {
    const roots = files.map((file) => path.resolve(file));
    const configFile = findConfigFile(path.dirname(roots[0] as string));
    const base = path.dirname(configFile ?? (roots[0] as string));
    const scratch = await mkdtemp(path.join(tmpdir(), "hearth-typecheck-"));
    try {
      const project = path.join(scratch, "tsconfig.json");
      const shown = configFile ? await this.showConfig(configFile, base) : null;
      await writeFile(project, JSON.stringify(checkProject(roots, configFile, shown?.compilerOptions ?? {}, base)));
      const output = await this.run(["-p", project, "--pretty", "false", "--listFiles", "--singleThreaded"], base);
      const { diagnostics, listed } = parseCompilerOutput(output, base);
      const wanted = new Set(roots);
      if (this.options.fallback && diagnostics.some((diagnostic) => optionsError(diagnostic, wanted)))
        return this.options.fallback.checkReading(files);
      return {
        // Without a fallback, what is wrong with the options is said: the check found nothing else.
        diagnostics: diagnostics.filter(
          (diagnostic) => diagnostic.file === "" || wanted.has(diagnostic.file) || optionsError(diagnostic, wanted),
        ),
        read: [this.options.compiler, ...(configFile ? [configFile] : []), ...listed],
      };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** The tsconfig's options with everything it extends merged in, as the compiler reads them. */
  private async showConfig(configFile: string, cwd: string): Promise<{ compilerOptions?: Record<string, unknown> }> {
    const output = await this.run(["-p", configFile, "--showConfig"], cwd);
    try {
      return JSON.parse(output) as { compilerOptions?: Record<string, unknown> };
    } catch {
      // A tsconfig.json the compiler cannot read: its options are not known, and the check
      // itself reports what is wrong with it.
      return {};
    }
  }

  private run(args: string[], cwd: string): Promise<string> {
    if (this.closed) return Promise.reject(new Error("The type checker was closed"));
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.compiler, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
      this.running.add(child);
      const chunks: Buffer[] = [];
      let bytes = 0;
      const collect = (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_OUTPUT_BYTES) child.kill();
        else chunks.push(chunk);
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      child.on("error", (error) => {
        this.running.delete(child);
        reject(error);
      });
      child.on("close", (code, signal) => {
        this.running.delete(child);
        if (bytes > MAX_OUTPUT_BYTES) reject(new Error("The type check printed more than 32 MB; it was stopped"));
        // 0: no errors, 1 and 2: errors reported (with or without output); a signal: killed.
        else if (signal !== null || code === null || code > 2)
          reject(new Error(`The TypeScript compiler stopped (${signal ?? `exit code ${code}`})`));
        else resolve(Buffer.concat(chunks).toString("utf8"));
      });
    });
  }
}

/** `dir` and every folder above it, nearest first. */
function* foldersUp(dir: string): Generator<string> {
  for (let current = dir; ; current = path.dirname(current)) {
    yield current;
    if (path.dirname(current) === current) return;
  }
}

/** The nearest tsconfig.json at or above `dir`. */
function findConfigFile(dir: string): string | undefined {
  for (const folder of foldersUp(dir)) {
    const candidate = path.join(folder, "tsconfig.json");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The `node_modules/@types` folders the compiler would look in from `dir`: it and every folder above. */
function typeRootsAbove(dir: string): string[] {
  return [...foldersUp(dir)].map((folder) => path.join(folder, "node_modules", "@types")).filter(isDirectory);
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Used when no tsconfig.json is found above the automations, as the JavaScript checker does. */
const DEFAULT_OPTIONS = {
  strict: true,
  skipLibCheck: true,
  esModuleInterop: true,
  // Node 22 and later run TypeScript without tsx and find a helper only as "./helper.ts".
  allowImportingTsExtensions: true,
  // Automations run on Node: the browser's DOM typings would only let `document` pass the check.
  lib: ["es2023"],
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
} as const;

/**
 * The project the compiler checks, written to a scratch folder: the automation files only,
 * under the tsconfig's options (extended by absolute path), never emitting. TypeScript 7 no
 * longer includes every `@types` package when `types` is not set, and would look for type
 * roots from the scratch folder: both are spelled out as TypeScript 5 read them from the
 * tsconfig's folder, so an automation using `process` checks as it did.
 */
export function checkProject(
  roots: readonly string[],
  configFile: string | undefined,
  configured: Record<string, unknown>,
  base: string,
): Record<string, unknown> {
  const hearthPaths = roots[0] === undefined ? undefined : hearthTypePaths(roots[0]);
  const typeRoots = Array.isArray(configured.typeRoots)
    ? configured.typeRoots
        .filter((root): root is string => typeof root === "string")
        .map((root) => path.resolve(base, root))
    : typeRootsAbove(base);
  const types = Array.isArray(configured.types)
    ? undefined
    : [
        ...new Set(
          typeRoots.flatMap((root) => {
            try {
              return readdirSync(root).filter((name) => !name.startsWith(".") && isDirectory(path.join(root, name)));
            } catch {
              return [];
            }
          }),
        ),
      ].sort();
  return {
    ...(configFile ? { extends: configFile } : {}),
    compilerOptions: {
      ...(configFile ? {} : DEFAULT_OPTIONS),
      noEmit: true,
      incremental: false,
      composite: false,
      typeRoots,
      ...(types ? { types } : {}),
      // Automations in a folder of their own import "hearth" from the Hearth that runs them.
      ...(hearthPaths && !configured.paths ? { paths: hearthPaths } : {}),
    },
    files: [...roots],
    include: [],
    references: [],
  };
}

const LOCATED = /^(.+)\((\d+),(\d+)\): error TS(\d+): (.*)$/;
const GLOBAL = /^error TS(\d+): (.*)$/;

/**
 * The compiler's `--pretty false --listFiles` output: `file(line,col): error TSn: message` with
 * a message chain on the indented lines below it, `error TSn: message` for a global error, and
 * the absolute path of every file of the program.
 */
export function parseCompilerOutput(output: string, cwd: string): { diagnostics: TypeDiagnostic[]; listed: string[] } {
  const diagnostics: TypeDiagnostic[] = [];
  const listed: string[] = [];
  let last: TypeDiagnostic | undefined;
  for (const line of output.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    if (last && /^\s/.test(line)) {
      last.message += `\n${line}`;
      continue;
    }
    const located = LOCATED.exec(line);
    const global = located ? null : GLOBAL.exec(line);
    if (located) {
      last = {
        file: path.resolve(cwd, located[1] as string),
        line: Number(located[2]),
        column: Number(located[3]),
        code: Number(located[4]),
        message: located[5] as string,
      };
      diagnostics.push(last);
    } else if (global) {
      last = { file: "", line: 0, column: 0, code: Number(global[1]), message: global[2] as string };
      diagnostics.push(last);
    } else {
      last = undefined;
      listed.push(path.resolve(cwd, line.trim()));
    }
  }
  return { diagnostics, listed };
}
