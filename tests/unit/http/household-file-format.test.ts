import { Readable } from "node:stream";
import { expect } from "chai";
import {
  FileShapeError,
  HOUSEHOLD_FILE_LIMITS,
  readHouseholdFile,
} from "../../../src/adapters/http/inventory/household-file-format.js";
import type { ImportRow } from "../../../src/domain/inventory/household-transfer.js";

const MB = 1024 * 1024;

/**
 * A file made of `parts`, where a number stands for that many bytes of `filler`, produced
 * 64 kB at a time and only when read; `read()` says how many bytes the reader pulled.
 */
function lazyFile(parts: (string | number)[], filler = "a") {
  let pulled = 0;
  const chunks = function* () {
    for (const part of parts) {
      if (typeof part === "string") {
        pulled += Buffer.byteLength(part);
        yield Buffer.from(part);
        continue;
      }
      for (let left = part; left > 0; left -= 64 * 1024) {
        const size = Math.min(left, 64 * 1024);
        pulled += size;
        yield Buffer.from(filler.repeat(size));
      }
    }
  };
  return { stream: Readable.from(chunks(), { objectMode: false }), pulled: () => pulled };
}

async function readAll(source: Readable, format: "json" | "csv"): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  for await (const row of readHouseholdFile(source, format)) rows.push(row);
  return rows;
}

async function refusal(source: Readable, format: "json" | "csv"): Promise<FileShapeError> {
  try {
    await readAll(source, format);
  } catch (error) {
    if (error instanceof FileShapeError) return error;
    throw error;
  }
  throw new Error("the file was read without complaint");
}

describe("household file reading: limits while reading", () => {
  it("refuses a 30 MB CSV notes cell as soon as it passes the row limit, naming the row and column", async () => {
    const file = lazyFile([
      "id,name,quantity,freezerName,compartmentName,notes\r\n",
      'abcdefgh01,Peas,1,F,C,"short"\r\n',
      'abcdefgh02,Peas,1,F,C,"',
      30 * MB,
      '"\r\n',
    ]);
    const error = await refusal(file.stream, "csv");
    expect(error.row).to.equal("row 3");
    expect(error.reason).to.match(/^notes passes 16384 characters/);
    // Refused while reading the cell, not after collecting it.
    expect(file.pulled()).to.be.below(MB);
  });

  it("refuses a CSV record with more cells than any household file has, without reading the rest", async () => {
    const file = lazyFile(["id,name,quantity\n", "abcdefgh01,Peas,1\n", 10 * MB, "\n"], ",");
    const error = await refusal(file.stream, "csv");
    expect(error.row).to.equal("row 3");
    expect(error.reason).to.equal(`has more than ${HOUSEHOLD_FILE_LIMITS.csvCells} cells`);
    expect(file.pulled()).to.be.below(MB);
  });

  it("reads RFC 4180 CSV: a BOM, quoted commas, escaped quotes, multi-line cells and CRLF, naming rows by their first line", async () => {
    const text =
      '\uFEFFid,name,quantity,freezerName,compartmentName,notes\r\n\r\nabcdefgh01,"Stew, ""grandma\'s""",2,Chest,Top,"line one\nline two"\r\nabcdefgh02,,1,Chest,Top,\r\nabcdefgh03,Peas,1,Chest,Top,plain';
    const rows = await readAll(Readable.from([text]), "csv");
    expect(rows.map((row) => [row.kind, row.row])).to.deep.equal([
      ["item", "row 3"],
      ["problem", "row 5"],
      ["item", "row 6"],
    ]);
    expect(rows[0]).to.include({ name: 'Stew, "grandma\'s"', notes: "line one\nline two", quantity: 2 });
    const unclosed = await refusal(Readable.from(['id,name,quantity\nabcdefgh01,"Peas,1\n']), "csv");
    expect(unclosed.message).to.equal("a quoted field opened on line 2 is never closed");
  });

  it("refuses a 30 MB JSON string as soon as its row passes the limit, naming the row", async () => {
    const file = lazyFile([
      '{"items":[{"id":"abcdefgh01","name":"Peas","quantity":1,"freezerName":"F","compartmentName":"C"},',
      '{"id":"abcdefgh02","name":"Peas","quantity":1,"notes":"',
      30 * MB,
      '"}]}',
    ]);
    const error = await refusal(file.stream, "json");
    expect(error.row).to.equal("items[1]");
    expect(error.reason).to.match(/^is longer than 16384 characters/);
    expect(file.pulled()).to.be.below(MB);
  });

  it("refuses JSON rows nested deeper than a row can be, and a huge top-level key or meta value, while reading", async () => {
    const deep = await refusal(
      Readable.from([`{"items":[{"id":"abcdefgh01","notes":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}]}`]),
      "json",
    );
    expect(deep.row).to.equal("items[0]");
    expect(deep.reason).to.equal(`is nested deeper than ${HOUSEHOLD_FILE_LIMITS.jsonRowDepth} levels`);
    const arrays = await refusal(Readable.from([`${"[".repeat(100_000)}${"]".repeat(100_000)}`]), "json");
    expect(arrays.message).to.equal("the file must be a JSON object");
    const key = lazyFile(['{"', 30 * MB, '":1}']);
    expect((await refusal(key.stream, "json")).message).to.match(/^unexpected field "a{64}"/);
    expect(key.pulled()).to.be.below(MB);
    const meta = lazyFile(['{"format":"', 30 * MB, '","items":[]}']);
    expect((await refusal(meta.stream, "json")).row).to.equal("format");
    expect(meta.pulled()).to.be.below(MB);
  });

  it("reads the meta fields and every array of an export, and says where a file ends too soon", async () => {
    const rows = await readAll(
      Readable.from([
        '\uFEFF{"format":"hearth-household","version":1,"householdId":"h","exportedAt":"2026-01-01T00:00:00Z",',
        '"freezers":[{"id":"freezer001","name":"Chest","description":null,"createdAt":"2026-01-01T00:00:00Z"}],',
        '"compartments":[{"id":"compart001","freezerId":"freezer001","name":"Top","position":0}],',
        '"items":[{"id":"abcdefgh01","name":"Pe\\"as \\u00e9","quantity":1.5,"compartmentId":"compart001","notes":null}],',
        '"history":[{"id":"x"}]}\n',
      ]),
      "json",
    );
    expect(rows.map((row) => row.kind)).to.deep.equal(["freezer", "compartment", "item", "skipped"]);
    expect(rows[2]).to.include({ name: 'Pe"as é', quantity: 1.5, notes: null });
    const cut = await refusal(Readable.from(['{"items":[{"id":"abcdefgh01"}']), "json");
    expect(cut.message).to.equal("the file ends before its JSON object does");
    const proto = await readAll(Readable.from(['{"items":[{"__proto__":{"x":1},"id":"abcdefgh01"}]}']), "json");
    expect(proto[0]).to.deep.include({ kind: "problem" });
  });

  it("reads UTF-8 split anywhere across chunks, and refuses other encodings at the line they start on", async () => {
    const header = "id,name,quantity,freezerName,compartmentName\n";
    const text = Buffer.from(`${header}abcdefgh01,Hähnchen 🍗,1,Truhe,Oben\n`);
    // Every split of the file into two chunks, most of them inside a character.
    for (let cut = 1; cut < text.length; cut++) {
      const rows = await readAll(Readable.from([text.subarray(0, cut), text.subarray(cut)]), "csv");
      expect(rows[0]).to.include({ kind: "item", name: "Hähnchen 🍗" });
    }
    // A spreadsheet's CSV in Windows-1252: "ä" is the single byte E4.
    const latin = Buffer.concat([
      Buffer.from(`${header}abcdefgh01,Peas,1,Truhe,Oben\nabcdefgh02,H`),
      Buffer.from([0xe4]),
      Buffer.from("hnchen,1,Truhe,Oben\n"),
    ]);
    const refused = await refusal(Readable.from([latin]), "csv");
    expect(refused.row).to.equal("row 3");
    expect(refused.reason).to.match(/^is not UTF-8 text; save the file as UTF-8/);
    const bad = [
      [0xc0, 0x80], // an overlong NUL
      [0xed, 0xa0, 0x80], // a UTF-16 surrogate
      [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
      [0xe2, 0x82], // cut short at the end of the file
    ];
    for (const bytes of bad) {
      const file = Buffer.concat([Buffer.from(`${header}abcdefgh01,`), Buffer.from(bytes)]);
      expect((await refusal(Readable.from([file]), "csv")).row).to.equal("row 2");
    }
    const utf16 = Buffer.from(`\uFEFF{"items":[]}`, "utf16le");
    expect((await refusal(Readable.from([utf16]), "json")).message).to.match(/^line 1 is not UTF-8 text/);
    const json = Buffer.concat([
      Buffer.from('{"items":[\n{"id":"abcdefgh01","name":"H'),
      Buffer.from([0xe4, 0x22, 0x7d, 0x5d, 0x7d]),
    ]);
    expect((await refusal(Readable.from([json]), "json")).message).to.match(/^line 2 is not UTF-8 text/);
  });

  it("refuses a file with more rows than the limit at the row past it, in either format", async () => {
    const limit = 1000;
    const csv = ["id,name,quantity,freezerName,compartmentName"];
    const items: object[] = [];
    for (let index = 0; index <= limit + 5; index++) {
      csv.push(`r${String(index).padStart(9, "0")},P,1,F,C`);
      items.push({ id: `r${String(index).padStart(9, "0")}`, name: "P", quantity: 1 });
    }
    for (const [format, text, row] of [
      ["csv", csv.join("\n"), `row ${limit + 2}`],
      ["json", JSON.stringify({ history: [{}, {}], items }), `items[${limit}]`],
    ] as const) {
      let count = 0;
      try {
        for await (const _row of readHouseholdFile(Readable.from([text]), format, { maxRows: limit })) count++;
        expect.fail("read past the limit");
      } catch (error) {
        expect(error, format).to.be.instanceOf(FileShapeError);
        expect((error as FileShapeError).row, format).to.equal(row);
      }
      // History rows are not counted.
      expect(count, format).to.equal(format === "json" ? limit + 2 : limit);
    }
    expect(HOUSEHOLD_FILE_LIMITS.rows).to.equal(500_000);
  });
});

describe("household file reading: shopping-list rows", () => {
  it("reads a CSV shopping record with typed cells and the API's defaults, and names what a bad one gets wrong", async () => {
    const text = [
      "record,id,name,quantity,unit,categoryId,checked,position",
      'shopping,entry0000001,"Peas, frozen",0.5,kg,,true,3',
      "shopping,entry0000002,Milk,,,,,",
      "shopping,entry0000003,Eggs,-1,crate,,maybe,",
    ].join("\r\n");
    const rows = await readAll(Readable.from([text]), "csv");
    expect(rows.slice(0, 2)).to.deep.equal([
      {
        kind: "shopping",
        row: "row 2",
        name: "Peas, frozen",
        quantity: 0.5,
        unit: "kg",
        categoryId: null,
        checked: true,
        position: 3,
      },
      {
        kind: "shopping",
        row: "row 3",
        name: "Milk",
        quantity: 1,
        unit: "piece",
        categoryId: null,
        checked: false,
        position: 0,
      },
    ]);
    expect(rows[2]).to.include({ kind: "problem", row: "row 4" });
    const message = (rows[2] as { message: string }).message;
    expect(message)
      .to.match(/quantity: must be greater than 0/)
      .and.match(/unit: must be one of/)
      .and.match(/checked: must be true or false/);
  });
});
