/** One diagnostic of the TypeScript compiler, located in a file (1-based line and column). */
export interface TypeDiagnostic {
  file: string;
  line: number;
  column: number;
  code: number;
  message: string;
}

/** Type-checks automation files against Hearth's types. */
export interface TypeChecker {
  /** The type errors of `files` (absolute paths); never throws for errors in the files themselves. */
  check(files: readonly string[]): Promise<TypeDiagnostic[]>;
  /** Frees what the checker holds (a worker thread). */
  close?(): Promise<void>;
}

export const TYPE_CHECKER = Symbol("TypeChecker");
