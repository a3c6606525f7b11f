import { expect } from "chai";
import { PREPARED, prepareMarkedStatements } from "../../../src/adapters/persistence/pg-prepared-statements.js";

type Callback = (error: Error | null, result?: unknown) => void;

/** A client that records what it was asked and answers through the callback or a promise. */
function recordingClient(failWith?: { code: string }) {
  const calls: unknown[] = [];
  const client = {
    query: (config: unknown, ...rest: unknown[]) => {
      calls.push(config);
      const callback = rest[rest.length - 1];
      const error = failWith ? Object.assign(new Error("refused"), failWith) : null;
      if (typeof callback === "function") {
        (callback as Callback)(error, error ? undefined : { rows: [] });
        return undefined;
      }
      return error ? Promise.reject(error) : Promise.resolve({ rows: [] });
    },
  };
  return { client, calls };
}

const marked = (text: string) => ({ text, values: [1], ...PREPARED });
const nameOf = (config: unknown) => (config as { name?: string }).name;

describe("named prepared statements for marked PostgreSQL queries", () => {
  it("names a marked statement after its text and leaves every other query as it was", async () => {
    const { client, calls } = recordingClient();
    prepareMarkedStatements(client);
    const plain = { text: "SELECT 1", values: [] };
    await new Promise<void>((resolve) => client.query(plain as never, (() => resolve()) as never));
    await new Promise<void>((resolve) => client.query(marked("SELECT $1") as never, (() => resolve()) as never));
    await new Promise<void>((resolve) => client.query(marked("SELECT $1") as never, (() => resolve()) as never));
    await new Promise<void>((resolve) => client.query(marked("SELECT $1, 2") as never, (() => resolve()) as never));
    expect(calls[0]).to.equal(plain);
    expect(calls[1]).to.deep.include({ text: "SELECT $1", values: [1] });
    expect(calls[1]).not.to.have.property("prepared");
    expect(nameOf(calls[1])).to.match(/^hearth_0_[\w-]{22}$/);
    expect(nameOf(calls[2])).to.equal(nameOf(calls[1]));
    expect(nameOf(calls[3])).to.be.a("string").and.not.equal(nameOf(calls[1]));
  });

  it("keeps a name the caller gave", async () => {
    const { client, calls } = recordingClient();
    prepareMarkedStatements(client);
    await client.query({ ...marked("SELECT $1"), name: "mine" } as never);
    expect(nameOf(calls[0])).to.equal("mine");
  });

  it("prepares afresh under a new name after PostgreSQL refused a kept plan (0A000), with a callback or a promise", async () => {
    for (const style of ["callback", "promise"] as const) {
      const { client, calls } = recordingClient({ code: "0A000" });
      prepareMarkedStatements(client);
      const run = () =>
        style === "callback"
          ? new Promise<unknown>((resolve) =>
              client.query(marked("SELECT * FROM t") as never, ((error: Error | null) => resolve(error)) as never),
            )
          : (client.query(marked("SELECT * FROM t") as never) as Promise<unknown>).catch((error: unknown) => error);
      expect(await run()).to.have.property("code", "0A000");
      await run();
      expect(nameOf(calls[0])).to.match(/^hearth_0_/);
      expect(nameOf(calls[1])).to.match(/^hearth_1_/);
    }
  });

  it("runs a statement refused for a changed table again at once outside a transaction, and only reports it inside one, with a callback or a promise", async () => {
    const { EventEmitter } = await import("node:events");
    for (const style of ["callback", "promise"] as const) {
      for (const status of ["I", "T"]) {
        const calls: unknown[] = [];
        const connection = new EventEmitter();
        const client = {
          connection,
          query: (config: unknown, ...rest: unknown[]) => {
            calls.push(config);
            const refused = calls.length === 1 ? Object.assign(new Error("changed"), { code: "0A000" }) : null;
            (rest[rest.length - 1] as Callback)(refused, refused ? undefined : { rows: [{ ok: 1 }] });
          },
        };
        prepareMarkedStatements(client);
        connection.emit("readyForQuery", { status });
        const answer =
          style === "callback"
            ? await new Promise<{ error: Error | null; result?: unknown }>((resolve) =>
                client.query(
                  marked("SELECT * FROM t") as never,
                  ((error: Error | null, result?: unknown) => resolve({ error, result })) as never,
                ),
              )
            : await (client.query(marked("SELECT * FROM t") as never) as unknown as Promise<unknown>).then(
                (result) => ({ error: null, result }),
                (error: Error) => ({ error }),
              );
        if (status === "I") {
          expect(answer).to.deep.equal({ error: null, result: { rows: [{ ok: 1 }] } });
          expect(calls.map(nameOf).map((name) => name?.slice(0, 9))).to.deep.equal(["hearth_0_", "hearth_1_"]);
        } else {
          expect(answer.error).to.have.property("code", "0A000");
          expect(calls).to.have.length(1);
        }
      }
    }
  });

  it("keeps the name after any other error", async () => {
    const { client, calls } = recordingClient({ code: "23505" });
    prepareMarkedStatements(client);
    for (let i = 0; i < 2; i++) {
      await new Promise((resolve) => client.query(marked("INSERT") as never, resolve as never));
    }
    expect(nameOf(calls[1])).to.equal(nameOf(calls[0]));
  });
});
