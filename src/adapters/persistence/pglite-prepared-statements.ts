import { setImmediate as nextTurn } from "node:timers/promises";
import { parse, type PGlite, protocol, type QueryOptions, type Results } from "@electric-sql/pglite";

/** What the PostgreSQL server remembers of one named statement, and what is needed to run it again. */
interface PreparedStatement {
  name: string;
  /** Parameter type ids, from the statement's description: they pick each value's serializer. */
  paramTypes: number[];
  /** The row description message (absent for a statement that returns no rows). */
  rowDescription: unknown[];
}

/** Statements worth keeping: those knex sends for reads and writes, not DDL or transaction control. */
const CACHEABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Numbers statement names across every cache in the process, so two caches on one PGlite never clash. */
let sequence = 0;

/**
 * Inside a transaction a statement goes on without a turn, unless the loop has not turned for
 * this long: a long transaction (an import) must not keep timers, MQTT and health checks waiting.
 */
const TRANSACTION_TURN_MS = 5;

/** SQLSTATE of "cached plan must not change result type": the schema changed under a statement. */
const PLAN_INVALIDATED = "0A000";

/**
 * Runs queries on PGlite as named prepared statements, parsed and described once per SQL text
 * and then only bound and executed, in one call into PGlite instead of five.
 *
 * PGlite's own `query()` parses, describes, binds, describes again and executes every statement
 * anew, each step a separate call into the WebAssembly module, and the server re-parses and
 * re-plans the statement every time. For the inventory's short queries that overhead is most
 * of the time a request spends in the database (see docs/performance.md, the embedded database).
 * Knex sends the same SQL texts over and over (values are always parameters), so a bounded
 * cache of statements keyed by text removes it. Anything else — DDL, `BEGIN`/`COMMIT`,
 * multi-statement text — goes through PGlite's `query()` unchanged.
 */
export class PgliteStatementCache {
  private readonly statements = new Map<string, PreparedStatement>();
  private readonly capacity: number;
  private readonly turnBeforeStatements: boolean;
  private readonly now: () => number;
  /** Why PostgreSQL in this PGlite has stopped for good (a failed sync), or null. */
  private readonly stoppedBy: () => unknown;
  /** When the last turn this cache waited for ended (`now()`). */
  private lastTurn = Number.NEGATIVE_INFINITY;

  /**
   * `capacity`: how many statements stay prepared (default 300). `turnBeforeStatements`: false
   * runs each statement at once, without the event loop's turn first (default true; off only to
   * measure what the turn costs and wins, in `npm run bench:inventory`). `now`: the clock of the
   * turns inside a transaction, in ms (tests). `stoppedBy`: why PostgreSQL has stopped for good,
   * if it has (see DurableNodeFS); every statement is then refused at once.
   */
  constructor(
    private readonly pglite: PGlite,
    options: {
      capacity?: number;
      turnBeforeStatements?: boolean | undefined;
      now?: () => number;
      stoppedBy?: () => unknown;
    } = {},
  ) {
    this.stoppedBy = options.stoppedBy ?? (() => null);
    this.capacity = options.capacity ?? 300;
    this.turnBeforeStatements = options.turnBeforeStatements ?? true;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Lets the event loop poll before a statement that starts a unit of work: one outside a
   * transaction, or the `BEGIN` of one. Inside a transaction only past TRANSACTION_TURN_MS: the
   * transaction holds the one connection, and work the loop took up in between (reading and
   * checking other requests) would only hold it longer while every other request waits for it.
   */
  private async turn(): Promise<void> {
    // A closed PGlite has no module to ask; its query() then says it is closed.
    const inTransaction = !this.pglite.closed && this.pglite.isInTransaction();
    if (inTransaction && this.now() - this.lastTurn < TRANSACTION_TURN_MS) return;
    await nextTurn();
    this.lastTurn = this.now();
  }

  /** Same contract as `PGlite.query` (object rows), which it falls back to for what it does not cache. */
  async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    // PGlite runs a statement synchronously on this thread, and the code awaiting it goes on in
    // the same microtask queue: without a turn of the event loop here, every request already read
    // runs to its end while newer ones wait unread in their sockets until the whole batch is
    // done. Under load a request then waited up to two batches, the p99 twice the median (the
    // embedded database's fairness, docs/performance.md). Turns inside a transaction: see turn().
    if (this.turnBeforeStatements) await this.turn();
    const stopped = this.stoppedBy();
    if (stopped) {
      throw new Error(
        `The embedded database stopped after a failed sync to disk (${stopped instanceof Error ? stopped.message : String(stopped)}); restart Hearth`,
      );
    }
    // A closed PGlite goes to query() too, which says so (the protocol calls would fail on its
    // missing module with a TypeError).
    if (!CACHEABLE.test(sql) || options?.rowMode === "array" || options?.blob || this.pglite.closed) {
      return this.pglite.query<T>(sql, params, options);
    }
    try {
      return await this.run<T>(sql, params);
    } catch (error) {
      // A migration changed a table a cached statement reads: forget them all and prepare anew.
      if ((error as { code?: string }).code !== PLAN_INVALIDATED) throw error;
      if (this.pglite.isInTransaction()) {
        // The error aborted the transaction, so nothing can be retried in it; the statements are
        // only forgotten here (the server keeps them under names never used again).
        this.statements.clear();
        throw error;
      }
      await this.forgetAll();
      return this.run<T>(sql, params);
    }
  }

  /** Drops every named statement (on PGlite and here); the next queries prepare again. */
  async forgetAll(): Promise<void> {
    const names = [...this.statements.values()].map((statement) => statement.name);
    this.statements.clear();
    if (names.length === 0) return;
    const messages = names.map((name) => protocol.serialize.close({ type: "S", name }));
    await this.pglite._runExclusiveQuery(() =>
      this.pglite.execProtocol(concat([...messages, protocol.serialize.sync()]), { syncToFs: false }),
    );
  }

  private run<T>(sql: string, params: unknown[]): Promise<Results<T>> {
    return this.pglite._runExclusiveQuery(async () => {
      const statement = this.recall(sql) ?? (await this.prepare(sql));
      const values = params.map((value, index) => this.serialize(value, statement.paramTypes[index]));
      const { messages } = await this.pglite.execProtocol(
        concat([
          protocol.serialize.bind({ statement: statement.name, values }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
      );
      // parseResults builds rows from a row description followed by data rows: the description
      // comes from the cache, the rows from this execution.
      const [result] = parse.parseResults(
        [...statement.rowDescription, ...messages] as Parameters<typeof parse.parseResults>[0],
        this.pglite.parsers,
      );
      return result as Results<T>;
    });
  }

  /** The statement for `sql`, marked as the most recently used (the Map's order is the eviction order). */
  private recall(sql: string): PreparedStatement | undefined {
    const statement = this.statements.get(sql);
    if (statement) {
      this.statements.delete(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private async prepare(sql: string): Promise<PreparedStatement> {
    const name = `hearth_${++sequence}`;
    const { messages } = await this.pglite.execProtocol(
      concat([
        protocol.serialize.parse({ name, text: sql }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement: PreparedStatement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages as Parameters<typeof parse.parseResults>[0]),
      rowDescription: messages.filter((message) => message.name === "rowDescription"),
    };
    this.statements.set(sql, statement);
    if (this.statements.size > this.capacity) await this.evictOldest();
    return statement;
  }

  private async evictOldest(): Promise<void> {
    const [oldestSql, oldest] = this.statements.entries().next().value ?? [];
    if (oldestSql === undefined || !oldest) return;
    this.statements.delete(oldestSql);
    await this.pglite.execProtocol(
      concat([protocol.serialize.close({ type: "S", name: oldest.name }), protocol.serialize.sync()]),
      { syncToFs: false },
    );
  }

  /** As PGlite's query() does: the type's serializer, else the value's text. */
  private serialize(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serializer = type === undefined ? undefined : this.pglite.serializers[type];
    return serializer ? serializer(value) : String(value);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
