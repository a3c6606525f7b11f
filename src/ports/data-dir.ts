/**
 * The DATA_DIR value that keeps nothing on disk: PGlite in memory, keys and secrets generated
 * for the process, no backup socket, no kept type check (the tests' composition uses it).
 */
export const IN_MEMORY_DATA_DIR = ":memory:";

/** Whether `dataDir` is a folder Hearth may write files into. */
export function keepsFiles(dataDir: string): boolean {
  return dataDir !== IN_MEMORY_DATA_DIR;
}

/**
 * The folder under DATA_DIR where household imports are spooled while they are read: on the
 * disk Hearth keeps its data on, not in /tmp, which is RAM where it is a tmpfs (Debian 13). Left
 * out of backups, and emptied at every start (an import cut short by a stop leaves its file).
 */
export const IMPORT_SPOOL_DIR = "import-spool";
