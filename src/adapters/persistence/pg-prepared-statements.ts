import { createHash } from "node:crypto";

/**
 * knex `.options()` for a statement worth keeping planned on PostgreSQL (sql-statements.ts's
 * `queryNumbered` marks every statement it runs so): the inventory's hot writes and reads of one
 * item, whose plans do not depend on the values (lookups by key). PGlite ignores it: its
 * statement cache prepares every statement already.
 *
 * PostgreSQL plans an unnamed statement anew on every execution. For the item statements,
 * common table expressions over five tables, planning is most of their cost: the create
 * statement ran at 858/s unnamed and 1 290–1 413/s as a named statement on the same server,
 * with a third less CPU on the machine per statement (docs/performance.md). A named statement
 * is parsed once per connection, and after five executions PostgreSQL keeps a generic plan when
 * it costs no more than the custom ones.
 */
export const PREPARED: Readonly<{ prepared: true }> = Object.freeze({ prepared: true });

/** SQLSTATE of "cached plan must not change result type": a table's columns changed under a statement. */
const PLAN_INVALIDATED = "0A000";

/** The part of a node-postgres client this needs. */
interface QueryingClient {
  query: (...args: never[]) => unknown;
  /** The protocol connection: its ReadyForQuery messages say whether a transaction is open. */
  connection?: { on(event: "readyForQuery", listener: (message: { status?: string }) => void): unknown };
}

interface QueryConfig {
  text: string;
  values?: unknown[];
  name?: string;
  prepared?: unknown;
}

type Callback = (error: Error | null, result?: unknown) => void;

// Digests of the statement texts seen: a few dozen fixed texts, so the map stays small; the cap
// only guards against a caller marking a statement whose text varies without end.
const digests = new Map<string, string>();
const MAX_DIGESTS = 1000;

function digestOf(text: string): string {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash("sha256").update(text).digest("base64url").slice(0, 22);
    if (digests.size < MAX_DIGESTS) digests.set(text, digest);
  }
  return digest;
}

function isPreparedRequest(config: unknown): config is QueryConfig {
  return (
    typeof config === "object" &&
    config !== null &&
    (config as QueryConfig).prepared === true &&
    typeof (config as QueryConfig).text === "string" &&
    (config as QueryConfig).name === undefined
  );
}

/**
 * Makes `client` (a node-postgres client, from knex's pool) run the statements marked with
 * {@link PREPARED} as named prepared statements; every other query passes through untouched.
 *
 * Names come from a digest of the final SQL text, so one text is one statement per connection
 * and a statement whose text grows with its values (a list of rows) gets one name per shape.
 * If a migration changes a table's columns while the connection lives (another Hearth of a
 * newer version starting beside this one), PostgreSQL refuses the kept statement ("cached plan
 * must not change result type") before running it. The connection's statements are then
 * prepared afresh under new names, and a statement outside a transaction is run again at once;
 * inside one, the refusal has aborted the transaction, so it reaches the caller.
 */
export function prepareMarkedStatements(client: QueryingClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let generation = 0;
  // "I" between statements outside a transaction, "T" or "E" inside one. A statement's error
  // reaches its callback before the ReadyForQuery that follows it, so this is still the status
  // the statement started in.
  let status = "I";
  client.connection?.on("readyForQuery", (message) => {
    status = message.status ?? status;
  });
  const invalidated = (error: unknown) => (error as { code?: string } | null)?.code === PLAN_INVALIDATED;
  const named = (config: QueryConfig) => {
    const { prepared: _prepared, ...plain } = config;
    return { ...plain, name: `hearth_${generation}_${digestOf(plain.text)}` };
  };
  /** Runs a marked statement by name; a refusal for a changed table outside a transaction is run again once. */
  const send = (config: QueryConfig, args: unknown[], callback: Callback, retry: boolean): unknown =>
    query(named(config), ...args, (error: Error | null, result?: unknown) => {
      if (error && invalidated(error)) {
        const outsideTransaction = status === "I";
        generation++;
        if (retry && outsideTransaction) {
          send(config, args, callback, false);
          return;
        }
      }
      callback(error, result);
    });
  (client as { query: (...args: unknown[]) => unknown }).query = (config: unknown, ...rest: unknown[]) => {
    if (!isPreparedRequest(config)) return query(config, ...rest);
    const callback = rest[rest.length - 1];
    if (typeof callback === "function") return send(config, rest.slice(0, -1), callback as Callback, true);
    // The promise form (sql-statements.ts's queryNumbered) goes the callback's way, so a refused
    // statement is run again the same way.
    return new Promise((resolve, reject) =>
      send(config, rest, (error, result) => (error ? reject(error) : resolve(result)), true),
    );
  };
}
