/** Where automation classes come from: files on disk, loaded as modules. */
export interface AutomationSource {
  /** Absolute paths of the .ts and .js files (not .d.ts) under `dir`, sorted. */
  listFiles(dir: string, recursive: boolean): Promise<string[]>;
  /**
   * The module's default export. `fresh` loads the file's current contents even when an
   * earlier version was loaded (reload on save).
   */
  loadDefaultExport(file: string, options?: { fresh?: boolean }): Promise<unknown>;
}

export const AUTOMATION_SOURCE = Symbol("AutomationSource");
