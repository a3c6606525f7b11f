/**
 * The DATA_DIR value that keeps nothing on disk: PGlite in memory, keys and secrets generated
 * for the process, no backup socket, no kept type check (the tests' composition uses it).
 */
export const IN_MEMORY_DATA_DIR = ":memory:";

/** Whether `dataDir` is a folder Hearth may write files into. */
export function keepsFiles(dataDir: string): boolean {
  return dataDir !== IN_MEMORY_DATA_DIR;
}
