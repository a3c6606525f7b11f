import { fsyncSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/** PGlite's Emscripten module, as the file system hooks get it. */
type PostgresModule = Parameters<NodeFS["init"]>[1];

/** A file as Emscripten's NODEFS holds it open: `nfd` is Node's descriptor. */
interface NodeStream {
  nfd: number;
}

/** Emscripten's NODEFS: its stream operations, and the wrapper that turns Node's errors into errnos. */
interface NodeFileSystem {
  stream_ops: Record<string, unknown>;
  tryFSOperation<T>(operation: () => T): T;
}

/**
 * PGlite's files on disk, with fsync that reaches the disk. PGlite starts PostgreSQL with fsync
 * off (`-F`), and Emscripten's NODEFS, through which it writes the data directory, has no fsync:
 * a commit was in the operating system's cache only, so a power cut could lose the last half
 * minute of changes or leave the cluster unable to start. With this file system, and
 * {@link DURABLE_START_PARAMS}, every commit's WAL is synced before the commit returns, as
 * PostgreSQL does by default.
 *
 * `sync` is the call that syncs a descriptor; tests pass one that counts.
 */
export class DurableNodeFS extends NodeFS {
  /**
   * The first sync that failed. PostgreSQL stops after it (PANIC), as it does on a real disk, and
   * the instance then never answers again: statements must not be sent to it (they would wait
   * for ever).
   */
  syncFailure: unknown = null;

  constructor(
    dataDir: string,
    private readonly sync: (descriptor: number) => void = fsyncSync,
  ) {
    super(dataDir);
  }

  override async init(pg: PGlite, options: PostgresModule): ReturnType<NodeFS["init"]> {
    const { emscriptenOpts } = await super.init(pg, options);
    const addSync = (module: PostgresModule) => {
      // Emscripten's types leave a file system's operations out.
      const nodefs = module.NODEFS as unknown as NodeFileSystem | undefined;
      if (!nodefs) return;
      // fsync(2) in the WebAssembly build is WASI's fd_sync, which calls the stream's fsync when
      // its file system has one. A failure must reach PostgreSQL as an errno, as NODEFS's own
      // operations pass theirs on: any other exception was lost on the way, and the commit whose
      // WAL was not synced was acknowledged.
      nodefs.stream_ops.fsync = (stream: NodeStream) =>
        nodefs.tryFSOperation(() => {
          try {
            this.sync(stream.nfd);
          } catch (error) {
            this.syncFailure ??= error;
            throw error;
          }
        });
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), addSync] } };
  }
}

/**
 * PGlite's start parameters with fsync on. WAL is synced with fsync(2): the WebAssembly build's
 * fdatasync(2), PostgreSQL's default method on Linux, returns without syncing anything.
 */
export const DURABLE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams.filter((parameter) => parameter !== "-F"),
  "-c",
  "wal_sync_method=fsync",
];
