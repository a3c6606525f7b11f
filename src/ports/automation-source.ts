/** Where automation classes come from: files on disk, loaded as modules. */
export interface AutomationSource {
  /** Absolute paths of the .ts and .js files (not .d.ts) under `dir`, sorted. */
  listFiles(dir: string, recursive: boolean): Promise<string[]>;
  /** The module's default export. */
  loadDefaultExport(file: string): Promise<unknown>;
}

export const AUTOMATION_SOURCE = Symbol("AutomationSource");
