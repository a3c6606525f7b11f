import path from "node:path";
import type { TypeDiagnostic } from "../../ports/type-checker.js";
import { loadOnce } from "../../domain/shared/load-once.js";
import { hearthTypePaths } from "./hearth-types.js";

type TypeScript = typeof import("typescript");

/** Raised when the `typescript` package cannot be loaded. */
export class TypeScriptUnavailableError extends Error {
  override readonly name = "TypeScriptUnavailableError";
}

/** TypeScript is big (its compiler loads in about a second): only `hearth check` and the background check load it. */
const loadTypeScript = loadOnce(() =>
  import("typescript").then(
    (module) => ((module as { default?: TypeScript }).default ?? module) as TypeScript,
    (error: unknown) => {
      throw new TypeScriptUnavailableError(
        `Type checks need the typescript package (npm install typescript): ${error instanceof Error ? error.message : String(error)}`,
      );
    },
  ),
);

/** A check's diagnostics and the files the compiler read for it (absolute paths). */
export interface TypeCheckResult {
  diagnostics: TypeDiagnostic[];
  read: string[];
}

/** Used when no tsconfig.json is found above the automations: what `npm init` + Hearth's docs recommend. */
const DEFAULT_OPTIONS = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  esModuleInterop: true,
  // Node 22 and later run TypeScript without tsx and find a helper only as "./helper.ts".
  allowImportingTsExtensions: true,
} as const;

/**
 * Type-checks automation files with the TypeScript compiler API, under the tsconfig.json
 * found above them (its compiler options, not its file list), else strict defaults.
 * Reports only diagnostics located in `files` (or global ones): errors in Hearth's own code
 * or in libraries are not the author's to fix. A program kept from the previous call is
 * reused, so a re-check after one file changed is fast.
 */
export class TypeScriptChecker {
  private previous: import("typescript").Program | undefined;

  async check(files: readonly string[]): Promise<TypeDiagnostic[]> {
    return (await this.checkReading(files)).diagnostics;
  }

  /**
   * The check, and every file the compiler read for it (the sources, the declarations of
   * Hearth and the libraries, the tsconfig.json): the same files unchanged give the same answer.
   */
  async checkReading(files: readonly string[]): Promise<TypeCheckResult> {
    if (files.length === 0) return { diagnostics: [], read: [] };
    const ts = await loadTypeScript();
    const { options, configFile } = this.compilerOptions(ts, files[0] as string);
    const host = ts.createCompilerHost(options);
    // As tsc does: JSDoc is parsed only where it carries types (JavaScript files). The API's
    // default parses every comment of every declaration file for editors' quick info, and
    // Node's declarations are mostly comments: 7 MB more at the check's peak, 20 % slower.
    host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
    const program = ts.createProgram({
      rootNames: [...files],
      options,
      host,
      ...(this.previous ? { oldProgram: this.previous } : {}),
    });
    this.previous = program;
    const wanted = new Set(files.map((file) => path.resolve(file)));
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...files.flatMap((file) => {
        const source = program.getSourceFile(file);
        return source ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)] : [];
      }),
    ];
    return {
      diagnostics: diagnostics
        .filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error)
        .filter((diagnostic) => !diagnostic.file || wanted.has(path.resolve(diagnostic.file.fileName)))
        .map((diagnostic) => toTypeDiagnostic(ts, diagnostic)),
      read: [
        ...(configFile ? [path.resolve(configFile)] : []),
        ...program.getSourceFiles().map((source) => path.resolve(source.fileName)),
      ],
    };
  }

  private compilerOptions(
    ts: TypeScript,
    firstFile: string,
  ): { options: import("typescript").CompilerOptions; configFile: string | undefined } {
    const configFile = ts.findConfigFile(path.dirname(path.resolve(firstFile)), ts.sys.fileExists, "tsconfig.json");
    const fallback: import("typescript").CompilerOptions = {
      ...DEFAULT_OPTIONS,
      // Automations run on Node: the browser's DOM typings (a third of the compiler's reading)
      // would only let `document` pass the check.
      lib: ["lib.es2023.d.ts"],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    };
    // Automations in a folder of their own import "hearth" from the Hearth that runs them.
    const paths = hearthTypePaths(firstFile);
    if (!configFile) return { options: { ...fallback, ...(paths ? { paths } : {}) }, configFile };
    const parsed = ts.getParsedCommandLineOfConfigFile(
      configFile,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => undefined,
      },
    );
    if (!parsed) return { options: { ...fallback, ...(paths ? { paths } : {}) }, configFile };
    return {
      options: {
        ...parsed.options,
        ...(paths && !parsed.options.paths ? { paths } : {}),
        noEmit: true,
        incremental: false,
        composite: false,
      },
      configFile,
    };
  }
}

function toTypeDiagnostic(ts: TypeScript, diagnostic: import("typescript").Diagnostic): TypeDiagnostic {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  if (!diagnostic.file || diagnostic.start === undefined)
    return { file: "", line: 0, column: 0, code: diagnostic.code, message };
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return {
    file: path.resolve(diagnostic.file.fileName),
    line: line + 1,
    column: character + 1,
    code: diagnostic.code,
    message,
  };
}

/** `file:line:col - error TS2322: message`, the format editors and CI annotate. */
export function formatDiagnostic(diagnostic: TypeDiagnostic, cwd = process.cwd()): string {
  const where = diagnostic.file
    ? `${path.relative(cwd, diagnostic.file)}:${diagnostic.line}:${diagnostic.column}`
    : "(project)";
  return `${where} - error TS${diagnostic.code}: ${diagnostic.message}`;
}
