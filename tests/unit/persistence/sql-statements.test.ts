import { expect } from "chai";
import type { Knex } from "knex";
import { numbered, queryNumbered } from "../../../src/adapters/persistence/sql-statements.js";

/** A knex whose client hands out one recording connection, as a pool or a transaction does. */
function recordingKnex(rows: unknown[] = []) {
  const queries: unknown[] = [];
  const released: unknown[] = [];
  const connection = {
    query: async (config: unknown) => {
      queries.push(config);
      return { rows };
    },
  };
  const emitted: unknown[] = [];
  const client = {
    emit: (event: string, query: unknown) => emitted.push({ event, query }),
    acquireConnection: async () => connection,
    releaseConnection: async (given: unknown) => {
      released.push(given);
    },
  };
  return { knex: { client } as unknown as Knex, connection, queries, released, emitted };
}

describe("numbered statements", () => {
  it("numbers knex's ? placeholders in order, as PostgreSQL takes them", () => {
    expect(numbered("SELECT ?::text AS a, b FROM t WHERE c = ? AND d IN (?, ?)")).to.equal(
      "SELECT $1::text AS a, b FROM t WHERE c = $2 AND d IN ($3, $4)",
    );
    expect(numbered("SELECT 1")).to.equal("SELECT 1");
  });

  it("refuses a text with an escaped ?, which knex would have kept as an operator", () => {
    expect(() => numbered("SELECT data \\? 'key' FROM t WHERE id = ?")).to.throw(/escaped/);
  });

  it("runs on a connection of the pool as a marked prepared statement, and gives it back", async () => {
    const { knex, connection, queries, released, emitted } = recordingKnex([{ a: 1 }]);
    const rows = await queryNumbered(knex, "SELECT $1::int AS a", [1]);
    expect(rows).to.deep.equal([{ a: 1 }]);
    expect(queries).to.deep.equal([{ text: "SELECT $1::int AS a", values: [1], prepared: true }]);
    expect(released).to.deep.equal([connection]);
    // knex's "query" event, which listeners (and the statement-counting tests) read.
    expect(emitted).to.have.length(1);
    expect(emitted[0]).to.deep.include({ event: "query" });
    expect((emitted[0] as { query: object }).query).to.deep.include({ sql: "SELECT $1::int AS a", bindings: [1] });
  });

  it("gives the connection back after a failed statement", async () => {
    const { knex, connection, released } = recordingKnex();
    connection.query = async () => {
      throw Object.assign(new Error("refused"), { code: "23503" });
    };
    const failure = await queryNumbered(knex, "SELECT $1", [1]).catch((error: unknown) => error);
    expect(failure).to.have.property("code", "23503");
    expect(released).to.deep.equal([connection]);
  });

  it("refuses an undefined value, as knex does, instead of sending NULL", async () => {
    const { knex, queries } = recordingKnex();
    const failure = await queryNumbered(knex, "SELECT $1, $2", [1, undefined]).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(Error);
    expect(queries).to.deep.equal([]);
  });
});
