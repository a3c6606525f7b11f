import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { expect } from "chai";
import type express from "express";
import request from "supertest";
import type { HouseholdDataUseCases } from "../../../../src/adapters/http/inventory/household-data-routes.js";
import type { ImportRow } from "../../../../src/domain/inventory/household-transfer.js";
import { HOUSEHOLD, importRouterApp } from "./import-router-app.js";

const FILE = `id,name,quantity,freezerName,compartmentName\nabcdefgh01,Erbsen,1,Truhe,Oben\nabcdefgh02,Hähnchen,2,Truhe,Oben\n`;

/** The import route over a use case that reads the rows it is given (as the real one does), nothing else. */
function appWith(importMaxBytes = 1024 * 1024) {
  const imported: ImportRow[][] = [];
  const useCases = {
    importHousehold: {
      async execute(input: { rows: () => AsyncIterable<ImportRow> }) {
        const rows: ImportRow[] = [];
        for await (const row of input.rows()) rows.push(row);
        imported.push(rows);
        return { rows: rows.length };
      },
    },
  } as unknown as HouseholdDataUseCases;
  const app = importRouterApp(useCases, { importMaxBytes });
  return { app, imported };
}

const post = (app: express.Express, body: Buffer, encoding?: string) => {
  const call = request(app).post(`/households/${HOUSEHOLD}/import`).set("Content-Type", "text/csv");
  return (encoding ? call.set("Content-Encoding", encoding) : call).send(body);
};

describe("household import: Content-Encoding", () => {
  it("reads a file sent with gzip, deflate or br as the same rows as the plain file", async () => {
    const { app, imported } = appWith();
    const plain = Buffer.from(FILE);
    const sent: [Buffer, string | undefined][] = [
      [plain, undefined],
      [plain, "identity"],
      [gzipSync(plain), "gzip"],
      [gzipSync(plain), "x-gzip"],
      [deflateSync(plain), "deflate"],
      [brotliCompressSync(plain), "BR"],
    ];
    for (const [body, encoding] of sent) {
      const response = await post(app, body, encoding);
      expect(response.status, `${encoding}: ${JSON.stringify(response.body)}`).to.equal(200);
    }
    expect(imported).to.have.length(sent.length);
    for (const rows of imported) expect(rows).to.deep.equal(imported[0]);
    expect(imported[0]?.map((row) => (row.kind === "item" ? row.name : row.kind))).to.deep.equal([
      "Erbsen",
      "Hähnchen",
    ]);
  });

  it("refuses other encodings with 415 and data that does not decompress with 400, importing nothing", async () => {
    const { app, imported } = appWith();
    for (const encoding of ["compress", "zstd", "gzip, br", "__proto__"]) {
      const response = await post(app, gzipSync(FILE), encoding);
      expect(response.status, encoding).to.equal(415);
      expect(response.body.details).to.deep.equal([
        { path: "content-encoding", message: "must be gzip, deflate, br or identity" },
      ]);
    }
    const cut = gzipSync(FILE);
    for (const [body, encoding] of [
      [Buffer.from(FILE), "gzip"],
      [cut.subarray(0, cut.length - 12), "gzip"],
      [Buffer.from(FILE), "deflate"],
      [Buffer.from(FILE), "br"],
    ] as const) {
      const response = await post(app, body, encoding);
      expect(response.status, encoding).to.equal(400);
      expect(response.body.message).to.equal(
        "The file cannot be read: it does not decompress as its Content-Encoding says",
      );
    }
    expect(imported).to.deep.equal([]);
  });

  it("counts the limit on the decompressed file: a small compressed body cannot unpack past it", async () => {
    const { app, imported } = appWith(1024 * 1024);
    // A few kB of gzip that unpack to 4 MB of one repeated row.
    const bomb = gzipSync(Buffer.from(`id,name\n${"abcdefgh01,x\n".repeat(350_000)}`), { level: 9 });
    expect(bomb.length).to.be.below(20_000);
    const response = await post(app, bomb, "gzip");
    expect(response.status).to.equal(413);
    expect(response.body.message).to.equal("The import is larger than 1 MB");
    expect(imported).to.deep.equal([]);
  });
});
