/**
 * The household file: what `GET /households/:hid/export` writes and `POST …/import` and
 * `hearth export|import` read, as JSON or CSV. Both are written and read as streams.
 *
 * JSON: `{ format, version, householdId, exportedAt, freezers: [...], compartments: [...],
 * items: [...], history: [...] }`. CSV: one table whose `record` column says what each row is
 * (freezer, compartment, item, history); a file without that column holds items only.
 */
import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import { parser as jsonTokens } from "stream-json";
import Assembler from "stream-json/assembler.js";
import { z } from "zod";
import type { ExportRecord, ImportRow } from "../../../domain/inventory/household-transfer.js";
import { itemName, notes, timestamp } from "./item-schemas.js";
import { freezerDescription, placeName, position } from "./freezer-schemas.js";
import { fieldsWithNulCharacters, idSchema, NUL_CHARACTER_MESSAGE } from "./validation.js";
import { neutraliseFormula, restoreFormula } from "./csv-formula-guard.js";

export type HouseholdFileFormat = "json" | "csv";

export const HOUSEHOLD_FILE_FORMATS: readonly HouseholdFileFormat[] = ["json", "csv"];

/** What a history record holds besides its id, in the order files write it. */
const HISTORY_FIELDS = ["itemId", "fieldName", "oldValue", "newValue", "changedAt", "changedById"] as const;

const CSV_COLUMNS = [
  "record",
  "id",
  "freezerId",
  "freezerName",
  "compartmentId",
  "compartmentName",
  "position",
  "name",
  "quantity",
  "notes",
  "storedAt",
  "expiresAt",
  "archivedAt",
  "createdAt",
  "updatedAt",
  ...HISTORY_FIELDS,
] as const;

type CsvColumn = (typeof CSV_COLUMNS)[number];

// ---- writing ---------------------------------------------------------------------

/** Writes respecting backpressure: memory stays flat however fast records come. */
async function put(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

type Exported<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** The named fields of `source` in that order, dates as ISO text: one export row. */
function exported<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Exported<Pick<T, K>> {
  const row: Record<PropertyKey, unknown> = {};
  for (const key of keys) {
    const value = source[key];
    row[key] = value instanceof Date ? value.toISOString() : value;
  }
  return row as Exported<Pick<T, K>>;
}

function recordFields(record: ExportRecord): {
  array: "freezers" | "compartments" | "items" | "history";
  csv: Partial<Record<CsvColumn, string | number | null>>;
  json: object;
} {
  switch (record.kind) {
    case "freezer": {
      const json = exported(record.freezer, ["id", "name", "description", "createdAt"]);
      // CSV has one notes column for every record kind; a freezer's description goes there.
      const { description, ...rest } = json;
      return { array: "freezers", json, csv: { record: "freezer", ...rest, notes: description } };
    }
    case "compartment": {
      const json = exported(record.compartment, ["id", "freezerId", "name", "position", "createdAt"]);
      return { array: "compartments", json, csv: { record: "compartment", ...json } };
    }
    case "item": {
      const { item } = record;
      const json = {
        ...exported(item, ["id", "freezerId", "compartmentId", "name", "quantity", "notes", "storedAt", "expiresAt"]),
        archivedAt: item.deletedAt?.toISOString() ?? null,
        ...exported(item, ["createdAt", "updatedAt"]),
      };
      return { array: "items", json, csv: { record: "item", ...json } };
    }
    case "history": {
      const json = exported(record.entry, ["id", ...HISTORY_FIELDS]);
      return { array: "history", json, csv: { record: "history", ...json } };
    }
  }
}

function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = neutraliseFormula(String(value));
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Streams an export to `out` in `format`; resolves once everything was handed to `out`. */
export async function writeHouseholdFile(
  records: AsyncIterable<ExportRecord>,
  out: Writable,
  format: HouseholdFileFormat,
  meta: { householdId: string; exportedAt: Date },
): Promise<void> {
  if (format === "csv") {
    await put(out, `${CSV_COLUMNS.join(",")}\r\n`);
    for await (const record of records) {
      const { csv } = recordFields(record);
      await put(out, `${CSV_COLUMNS.map((column) => csvCell(csv[column])).join(",")}\r\n`);
    }
    return;
  }
  await put(
    out,
    `{"format":"hearth-household","version":1,"householdId":${JSON.stringify(meta.householdId)},"exportedAt":"${meta.exportedAt.toISOString()}"`,
  );
  // The arrays come in this order; an array with no records is still written, empty.
  const arrays = ["freezers", "compartments", "items", "history"];
  let current = -1;
  let first = true;
  const openUpTo = async (target: number) => {
    while (current < target) {
      current++;
      await put(out, `${current > 0 ? "]" : ""},"${arrays[current]}":[`);
      first = true;
    }
  };
  for await (const record of records) {
    const { array, json } = recordFields(record);
    await openUpTo(arrays.indexOf(array));
    await put(out, `${first ? "" : ","}${JSON.stringify(json)}`);
    first = false;
  }
  await openUpTo(arrays.length - 1);
  await put(out, "]}\n");
}

// ---- reading ---------------------------------------------------------------------

/** A column that may be empty or missing; either reads as null. */
const orNull = <T>(schema: z.ZodType<T>) =>
  schema
    .nullable()
    .optional()
    .transform((value) => value ?? null);
const optionalTimestamp = orNull(timestamp);
/** A row of the file: its id and what `shape` adds; createdAt is read only where `shape` says so. */
const fileRow = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ id: idSchema, createdAt: z.unknown().optional() }).extend(shape).strict();
const freezerRow = fileRow({ name: placeName, description: orNull(freezerDescription) });
const compartmentRow = fileRow({ freezerId: idSchema, name: placeName, position: position.optional().default(0) });
const itemRow = fileRow({
  name: itemName,
  quantity: z.number("must be a number").min(0, "must be 0 or more").max(1_000_000, "must be at most 1000000"),
  freezerId: orNull(idSchema),
  freezerName: orNull(placeName),
  compartmentId: orNull(idSchema),
  compartmentName: orNull(placeName),
  notes: notes.optional().transform((value) => value ?? null),
  storedAt: optionalTimestamp,
  expiresAt: optionalTimestamp,
  archivedAt: optionalTimestamp,
  createdAt: optionalTimestamp,
  // Written by the export, not imported: the import's owner becomes the updater.
  updatedAt: z.unknown().optional(),
}).refine((row) => row.quantity !== 0 || row.archivedAt !== null, {
  path: ["quantity"],
  message: "must be above 0 (0 only for an archived, used-up item)",
});

function problemText(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "row"}: ${issue.message}`).join("; ");
}

type Parsed = ImportRow;

function parseRow(kind: "freezers" | "compartments" | "items" | "history", value: unknown, row: string): Parsed {
  if (kind === "history") return { kind: "skipped", row };
  // As on every route: PostgreSQL text cannot hold a NUL character, so it is refused here.
  const nul = fieldsWithNulCharacters(value);
  if (nul.length > 0)
    return { kind: "problem", row, message: nul.map((field) => `${field}: ${NUL_CHARACTER_MESSAGE}`).join("; ") };
  if (kind === "freezers") {
    const parsed = freezerRow.safeParse(value);
    return parsed.success
      ? { kind: "freezer", row, id: parsed.data.id, name: parsed.data.name, description: parsed.data.description }
      : { kind: "problem", row, message: problemText(parsed.error) };
  }
  if (kind === "compartments") {
    const parsed = compartmentRow.safeParse(value);
    return parsed.success
      ? {
          kind: "compartment",
          row,
          id: parsed.data.id,
          freezerId: parsed.data.freezerId,
          name: parsed.data.name,
          position: parsed.data.position,
        }
      : { kind: "problem", row, message: problemText(parsed.error) };
  }
  const parsed = itemRow.safeParse(value);
  if (!parsed.success) return { kind: "problem", row, message: problemText(parsed.error) };
  const { updatedAt: _updatedAt, ...item } = parsed.data;
  return { kind: "item", row, ...item };
}

const JSON_ARRAYS = new Set(["freezers", "compartments", "items", "history"]);
const JSON_META = new Set(["format", "version", "householdId", "exportedAt"]);

/** The rows of a JSON household file, read token by token: one row in memory at a time. */
async function* jsonRows(source: Readable): AsyncGenerator<Parsed> {
  const tokens = source.pipe(jsonTokens.asStream({ packValues: true, streamValues: false }));
  let depth = 0;
  let key: string | null = null;
  let array: string | null = null;
  let index = 0;
  let element: Assembler | null = null;
  try {
    for await (const token of tokens as AsyncIterable<{ name: string; value?: string }>) {
      if (element) {
        element.consume(token as never);
        if (element.done) {
          yield parseRow(array as "items", element.current, `${array}[${index}]`);
          index++;
          element = null;
        }
        continue;
      }
      if (depth === 0) {
        if (token.name !== "startObject") throw new FileShapeError("the file must be a JSON object");
        depth = 1;
      } else if (depth === 1) {
        if (token.name === "keyValue") key = token.value ?? "";
        else if (token.name === "startArray" && key !== null && JSON_ARRAYS.has(key)) {
          array = key;
          index = 0;
          depth = 2;
        } else if (token.name === "endObject") depth = 0;
        else if (key !== null && JSON_META.has(key) && /Value$/.test(token.name)) key = null;
        else
          throw new FileShapeError(
            `unexpected ${key === null ? "content" : `field "${key}"`} at the top level (expected freezers, compartments, items, history)`,
          );
      } else if (token.name === "endArray") {
        depth = 1;
        array = null;
        key = null;
      } else {
        element = new Assembler();
        element.consume(token as never);
        if (element.done) {
          yield parseRow(array as "items", element.current, `${array}[${index}]`);
          index++;
          element = null;
        }
      }
    }
  } catch (error) {
    if (error instanceof FileShapeError) throw error;
    throw new FileShapeError(`the file is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The file as a whole cannot be read (not JSON, wrong top-level shape, no header). */
export class FileShapeError extends Error {}

/** RFC 4180 records of a CSV stream, one at a time, with the line each starts on. */
async function* csvRecords(source: Readable): AsyncGenerator<{ line: number; cells: string[] }> {
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let start = 1;
  let any = false;
  source.setEncoding("utf8");
  for await (const chunk of source as AsyncIterable<string>) {
    for (let i = 0; i < chunk.length; i++) {
      const char = chunk[i] as string;
      any = true;
      if (quoted) {
        if (char === '"') {
          if (chunk[i + 1] === '"') {
            cell += '"';
            i++;
          } else if (i + 1 === chunk.length) {
            // A quote at the chunk's end: decided by the next chunk's first character.
            quoted = false;
            afterQuote = true;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else {
          if (char === "\n") line++;
          cell += char;
        }
        continue;
      }
      if (afterQuote && char === '"') {
        // The escaped quote split across two chunks.
        cell += '"';
        quoted = true;
        afterQuote = false;
        continue;
      }
      afterQuote = false;
      if (char === '"' && cell === "") quoted = true;
      else if (char === ",") {
        cells.push(cell);
        cell = "";
      } else if (char === "\n" || char === "\r") {
        if (char === "\r" && chunk[i + 1] === "\n") i++;
        cells.push(cell);
        if (cells.length > 1 || cells[0] !== "") yield { line: start, cells };
        cells = [];
        cell = "";
        line++;
        start = line;
      } else cell += char;
    }
  }
  if (quoted) throw new FileShapeError(`a quoted field opened on line ${start} is never closed`);
  if (any && (cell !== "" || cells.length > 0)) {
    cells.push(cell);
    yield { line: start, cells };
  }
}

const CSV_NUMBER_FIELDS = new Set(["quantity", "position"]);
const CSV_RECORD_ARRAY: Record<string, "freezers" | "compartments" | "items" | "history"> = {
  freezer: "freezers",
  compartment: "compartments",
  item: "items",
  history: "history",
};
/** Columns each record kind reads, from its row schema (empty cells of the others are fine). */
const CSV_FIELDS: Record<string, readonly string[]> = {
  // CSV has one notes column; a freezer's description is read from it.
  freezers: Object.keys(freezerRow.shape).map((field) => (field === "description" ? "notes" : field)),
  compartments: Object.keys(compartmentRow.shape),
  items: Object.keys(itemRow.shape),
  history: [],
};

/** The rows of a CSV household file; cells are typed (numbers, empty → null) before validation. */
async function* csvRows(source: Readable): AsyncGenerator<Parsed> {
  let header: string[] | null = null;
  for await (const { line, cells } of csvRecords(source)) {
    if (!header) {
      header = cells.map((cell) => cell.trim());
      const unknown = header.filter((column) => !(CSV_COLUMNS as readonly string[]).includes(column));
      if (unknown.length > 0)
        throw new FileShapeError(`unknown CSV columns: ${unknown.join(", ")} (known: ${CSV_COLUMNS.join(", ")})`);
      if (!header.includes("id")) throw new FileShapeError("the CSV header must name an id column");
      continue;
    }
    const row = `row ${line}`;
    if (cells.length !== header.length) {
      yield { kind: "problem", row, message: `has ${cells.length} cells, the header ${header.length}` };
      continue;
    }
    const values = Object.fromEntries(header.map((column, index) => [column, restoreFormula(cells[index] as string)]));
    const array = values.record === undefined ? "items" : CSV_RECORD_ARRAY[values.record];
    if (!array) {
      yield {
        kind: "problem",
        row,
        message: `record must be one of freezer, compartment, item, history (not "${values.record}")`,
      };
      continue;
    }
    const typed: Record<string, unknown> = {};
    for (const field of CSV_FIELDS[array] as string[]) {
      const value = values[field];
      if (value === undefined || value === "") continue;
      const target = array === "freezers" && field === "notes" ? "description" : field;
      typed[target] = CSV_NUMBER_FIELDS.has(field) && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    }
    yield parseRow(array, typed, row);
  }
  if (!header) throw new FileShapeError("the CSV file is empty (it needs a header row)");
}

/** The rows of a household file in `format`, validated one by one. */
export function readHouseholdFile(source: Readable, format: HouseholdFileFormat): AsyncIterable<ImportRow> {
  return format === "csv" ? csvRows(source) : jsonRows(source);
}
