/**
 * A first start on PGlite unpacks the packaged cluster onto disk itself and opens it like any
 * later start (PGlite's own loadDataDir keeps the archive in its WebAssembly heap for good);
 * `hearth restore` unpacks a backup's database the same way.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { expect } from "chai";
import { openDatabase, restoreEmbeddedDatabase } from "../../../src/adapters/persistence/database.js";
import { packCluster, unpackCluster } from "../../../src/adapters/persistence/unpack-cluster.js";

/** One ustar header and its data, padded to 512-byte blocks. */
function entry(name: string, type: "0" | "5" | "2", data = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, "utf8");
  header.write("0000600\0", 100);
  header.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124);
  header.write(type, 156);
  header.write("ustar\u000000", 257);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding]);
}

function archive(...entries: Buffer[]): Uint8Array {
  return gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
}

/** PGlite's own dump of a new database whose table `kept` holds one row, `name`. */
async function dumpHolding(name: string): Promise<Uint8Array> {
  const source = await PGlite.create();
  await source.exec(`CREATE TABLE kept (name text); INSERT INTO kept VALUES ('${name}');`);
  const dump = new Uint8Array(await (await source.dumpDataDir("gzip")).arrayBuffer());
  await source.close();
  return dump;
}

/** The names in table `kept` of the cluster in `clusterDir`. */
async function keptIn(clusterDir: string): Promise<string[]> {
  const reopened = await PGlite.create({ dataDir: clusterDir });
  try {
    return (await reopened.query<{ name: string }>("SELECT name FROM kept")).rows.map((row) => row.name);
  } finally {
    await reopened.close();
  }
}

describe("unpacking a PGlite cluster on a first start", function () {
  this.timeout(120_000);
  let scratch: string;

  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-unpack-"));
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("writes a cluster PGlite dumped, which then opens with its data", async () => {
    const target = path.join(scratch, "pglite");
    await unpackCluster(await dumpHolding("peas"), target);
    expect(existsSync(path.join(target, "PG_VERSION"))).to.equal(true);
    expect(await readdir(scratch), "no staging folder is left").to.deep.equal(["pglite"]);
    expect(await keptIn(target)).to.deep.equal(["peas"]);
  });

  for (const [what, bad] of [
    [
      "an entry that climbs out of the cluster",
      archive(entry("/base", "5"), entry("base/../../escaped", "0", Buffer.from("x"))),
    ],
    ["a link", archive(entry("/base", "5"), entry("/base/link", "2"))],
    ["a file cut short", gzipSync(entry("/PG_VERSION", "0", Buffer.from("17\n")).subarray(0, 514))],
    [
      "an archive that stops inside a file's data",
      gzipSync(Buffer.concat([entry("/base", "5"), entry("/base/1", "0", Buffer.alloc(2048, 7)).subarray(0, 1536)])),
    ],
    ["bytes that are not gzip", new Uint8Array(Buffer.from("not a database template"))],
  ] as const) {
    it(`refuses ${what}, leaving nothing behind`, async () => {
      const target = path.join(scratch, "pglite");
      let failure: unknown;
      try {
        await unpackCluster(bad, target);
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(Error);
      expect((failure as Error).message).to.match(/database template/);
      expect(await readdir(scratch)).to.deep.equal([]);
      expect(existsSync(path.join(scratch, "escaped"))).to.equal(false);
    });
  }

  it("openDatabase creates a new data directory that the next start opens as it is", async () => {
    const dataDir = path.join(scratch, "data");
    const first = await openDatabase({ dataDir });
    try {
      await first.knex.raw("CREATE TABLE marker (id int)");
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).to.equal(true);
    expect((await readdir(dataDir)).filter((name) => name.includes("unpacking"))).to.deep.equal([]);
    const second = await openDatabase({ dataDir });
    try {
      expect((await second.knex.raw("SELECT count(*) AS n FROM marker")).rows).to.deep.equal([{ n: 0 }]);
    } finally {
      await second.close();
    }
  });

  describe("dumping an embedded database on disk (a live backup)", () => {
    /** Each entry's name, type and size, in the archive's order. */
    const listing = (archive: Uint8Array) => {
      const tar = gunzipSync(archive);
      const entries: string[] = [];
      for (let at = 0; at + 512 <= tar.length; ) {
        const header = tar.subarray(at, at + 512);
        const name = header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
        if (name === "") break;
        const prefix = header.subarray(345, 500).toString("utf8").replace(/\0.*$/s, "");
        const size = Number.parseInt(header.subarray(124, 136).toString("utf8").replace(/\0.*$/s, ""), 8);
        entries.push(`${String.fromCharCode(header[156] as number)} ${prefix ? `${prefix}/` : ""}${name} ${size}`);
        at += 512 + Math.ceil(size / 512) * 512;
      }
      return entries;
    };

    it("packs the files PGlite's own dump holds, in its layout, and the dump opens with its data", async () => {
      const dataDir = path.join(scratch, "data");
      const database = await openDatabase({ dataDir });
      let dump: Uint8Array;
      let own: Uint8Array;
      try {
        await database.knex.raw("CREATE TABLE kept (name text)");
        await database.knex.raw("INSERT INTO kept VALUES ('peas')");
        await database.dumpEmbedded!(path.join(scratch, "dump.tar.gz"));
        dump = await readFile(path.join(scratch, "dump.tar.gz"));
        // PGlite's own archive of the same, untouched cluster (after the dump's checkpoint).
        own = new Uint8Array(await (await database.embedded!.dumpDataDir("gzip")).arrayBuffer());
      } finally {
        await database.close();
      }
      expect(listing(dump)).to.deep.equal(listing(own));
      expect(listing(dump)[0]).to.equal("0 /PG_VERSION 3");

      const target = path.join(scratch, "unpacked");
      await unpackCluster(dump, target);
      expect(await keptIn(target)).to.deep.equal(["peas"]);
    });

    it("stores a path longer than a tar name in the header's prefix", async () => {
      const cluster = path.join(scratch, "cluster");
      const deep = path.join(cluster, "a".repeat(60), "b".repeat(60));
      await mkdir(deep, { recursive: true });
      await writeFile(path.join(deep, "PG_VERSION"), "17\n");
      await packCluster(cluster, path.join(scratch, "dump.tar.gz"));
      const dump = await readFile(path.join(scratch, "dump.tar.gz"));
      expect(listing(dump)).to.deep.equal([
        `5 /${"a".repeat(60)} 0`,
        `5 /${"a".repeat(60)}/${"b".repeat(60)} 0`,
        `0 /${"a".repeat(60)}/${"b".repeat(60)}/PG_VERSION 3`,
      ]);
      const target = path.join(scratch, "unpacked");
      await unpackCluster(dump, target);
      expect(existsSync(path.join(target, "a".repeat(60), "b".repeat(60), "PG_VERSION"))).to.equal(true);
    });
  });

  describe("restoring a backup's embedded database", () => {
    it("writes the dumped cluster into DATA_DIR/pglite, which opens with its data", async () => {
      const dataDir = path.join(scratch, "data");
      await restoreEmbeddedDatabase(dataDir, await dumpHolding("peas"));
      expect(await readdir(dataDir)).to.deep.equal(["pglite"]);
      expect(await keptIn(path.join(dataDir, "pglite"))).to.deep.equal(["peas"]);
    });

    it("replaces a database only with one that started: a damaged backup leaves the old one as it was", async () => {
      const dataDir = path.join(scratch, "data");
      await restoreEmbeddedDatabase(dataDir, await dumpHolding("peas"));

      const damaged = await restoreEmbeddedDatabase(dataDir, archive()).catch((error: unknown) => error);
      expect((damaged as Error).message).to.match(/not a database cluster/);
      expect(await readdir(dataDir)).to.deep.equal(["pglite"]);
      expect(await keptIn(path.join(dataDir, "pglite"))).to.deep.equal(["peas"]);

      await restoreEmbeddedDatabase(dataDir, await dumpHolding("beans"));
      expect(await readdir(dataDir)).to.deep.equal(["pglite"]);
      expect(await keptIn(path.join(dataDir, "pglite"))).to.deep.equal(["beans"]);
    });

    for (const [what, dump, message] of [
      ["bytes that are not gzip", new Uint8Array(Buffer.from("not a database")), /backup's database is damaged/],
      [
        "an archive with no cluster in it (PGlite would make an empty database there)",
        archive(),
        /backup's database is not a database cluster/,
      ],
      [
        "a cluster PostgreSQL cannot start",
        archive(entry("/PG_VERSION", "0", Buffer.from("99\n")), entry("/base", "5")),
        /backup's database does not start/,
      ],
    ] as const) {
      it(`refuses ${what}, leaving no database behind`, async () => {
        const dataDir = path.join(scratch, "data");
        const failure = await restoreEmbeddedDatabase(dataDir, dump).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).to.be.instanceOf(Error);
        expect((failure as Error).message).to.match(message);
        expect(await readdir(dataDir)).to.deep.equal([]);
      });
    }
  });
});
