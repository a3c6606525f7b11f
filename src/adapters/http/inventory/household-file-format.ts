/**
 * The household file: what `GET /households/:hid/export` writes and `POST …/import` and
 * `hearth export|import` read, as JSON or CSV. Both are written and read as streams.
 *
 * JSON: `{ format, version, householdId, exportedAt, freezers: [...], compartments: [...],
 * categories: [...], items: [...], history: [...], barcodes: [...], shoppingList: [...],
 * photos: [...] }`. CSV: one table whose `record` column says what each row is (freezer,
 * compartment, category, item, history, barcode, shopping); a file without that column holds
 * items only. Items name their category by id (`categoryId`, a category of the file or the
 * household) and by name (`categoryName`), so a file read elsewhere still finds or creates it. An
 * import reads history rows past (see ImportSkippedRow) and adds shopping-list entries the list
 * lacks (see ImportShoppingRow). CSV leaves photos out (a spreadsheet cell is no place for an
 * image): only JSON carries them.
 */
import { once } from "node:events";
import { type Readable, Transform, type Writable } from "node:stream";
import { CsvError, type InfoRecord, type Options as CsvOptions, parse as parseCsv } from "csv-parse";
import { jsonParser, type Token as JsonToken } from "stream-json/core/parser.js";
import { z } from "zod";
import type { ExportRecord, ImportRow, TransferPhoto } from "../../../domain/inventory/household-transfer.js";
import { DEFAULT_PHOTO_MAX_BYTES } from "./photo-limits.js";
import { itemName, itemUnit, notes, quantity, timestamp } from "./item-schemas.js";
import { barcode } from "./barcode-schemas.js";
import { SHOPPING_UNITS } from "../../../domain/inventory/shopping-list.js";
import { BARCODE_UNITS } from "../../../domain/inventory/barcode.js";
import { categoryName } from "./category-schemas.js";
import { DEFAULT_ITEM_UNIT, quantityFitsUnit, WHOLE_NUMBER_UNITS } from "../../../domain/inventory/item-unit.js";
import { freezerDescription, placeName, position } from "./freezer-schemas.js";
import { fieldsWithNulCharacters, NUL_CHARACTER_MESSAGE } from "../body-shape.js";
import { idSchema } from "./validation.js";
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
  "barcode",
  // Items' units and categories, and a remembered barcode's and a shopping-list entry's (records
  // "barcode", "shopping"; name, quantity, position and times share the columns above).
  "unit",
  "categoryId",
  "categoryName",
  "key",
  "checked",
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

/** The arrays of a JSON file, and what a CSV row's `record` names. */
type FileArray =
  | "freezers"
  | "compartments"
  | "categories"
  | "items"
  | "history"
  | "barcodes"
  | "shoppingList"
  | "photos";

function recordFields(
  record: Exclude<ExportRecord, { kind: "photo" }>,
  categoryNames: ReadonlyMap<string, string>,
): {
  array: FileArray;
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
    case "category": {
      const json = exported(record.category, ["id", "key", "name", "position", "createdAt"]);
      return { array: "categories", json, csv: { record: "category", ...json } };
    }
    case "item": {
      const { item } = record;
      const json = {
        ...exported(item, ["id", "freezerId", "compartmentId", "name", "quantity", "notes", "storedAt", "expiresAt"]),
        barcode: item.barcode,
        archivedAt: item.deletedAt?.toISOString() ?? null,
        ...exported(item, ["createdAt", "updatedAt", "unit", "categoryId"]),
        categoryName: item.categoryId === null ? null : (categoryNames.get(item.categoryId) ?? null),
      };
      return { array: "items", json, csv: { record: "item", ...json } };
    }
    case "history": {
      const json = exported(record.entry, ["id", ...HISTORY_FIELDS]);
      return { array: "history", json, csv: { record: "history", ...json } };
    }
    case "barcode": {
      const json = exported(record.barcode, ["code", "name", "unit", "categoryId", "updatedAt"]);
      const { code, ...rest } = json;
      // CSV names the code in the barcode column, which items use for theirs.
      return { array: "barcodes", json, csv: { record: "barcode", barcode: code, ...rest } };
    }
    case "shopping": {
      const json = exported(record.entry, [
        "id",
        "name",
        "quantity",
        "unit",
        "categoryId",
        "checked",
        "position",
        "createdAt",
        "updatedAt",
      ]);
      return { array: "shoppingList", json, csv: { record: "shopping", ...json, checked: String(json.checked) } };
    }
  }
}

/** A photo row: the display rendition, base64 in `data`. */
function photoFields(photo: TransferPhoto): { array: "photos"; json: object } {
  return {
    array: "photos",
    json: {
      itemId: photo.itemId,
      contentType: photo.contentType,
      data: Buffer.from(photo.image.buffer, photo.image.byteOffset, photo.image.byteLength).toString("base64"),
    },
  };
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
  // Categories come before items (a household has a few dozen at most): items carry their names.
  const categoryNames = new Map<string, string>();
  const fields = (record: Exclude<ExportRecord, { kind: "photo" }>) => {
    if (record.kind === "category") categoryNames.set(record.category.id, record.category.name);
    return recordFields(record, categoryNames);
  };
  if (format === "csv") {
    await put(out, `${CSV_COLUMNS.join(",")}\r\n`);
    for await (const record of records) {
      // CSV carries no photos (see the file's description above and docs/inventory-api.md).
      if (record.kind === "photo") continue;
      const { csv } = fields(record);
      await put(out, `${CSV_COLUMNS.map((column) => csvCell(csv[column])).join(",")}\r\n`);
    }
    return;
  }
  await put(
    out,
    `{"format":"hearth-household","version":1,"householdId":${JSON.stringify(meta.householdId)},"exportedAt":"${meta.exportedAt.toISOString()}"`,
  );
  // The arrays come in this order; an array with no records is still written, empty.
  const arrays: FileArray[] = [
    "freezers",
    "compartments",
    "categories",
    "items",
    "history",
    "barcodes",
    "shoppingList",
    "photos",
  ];
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
    const { array, json } = record.kind === "photo" ? photoFields(record.photo) : fields(record);
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
const categoryFileRow = fileRow({
  name: categoryName,
  position: position.optional().default(0),
  // Written so a reader sees which default a category is; an import keeps the household's own.
  key: z.unknown().optional(),
});
const itemRow = fileRow({
  name: itemName,
  quantity: z.number("must be a number").min(0, "must be 0 or more").max(1_000_000, "must be at most 1000000"),
  freezerId: orNull(idSchema),
  freezerName: orNull(placeName),
  compartmentId: orNull(idSchema),
  compartmentName: orNull(placeName),
  notes: notes.optional().transform((value) => value ?? null),
  unit: itemUnit.optional().transform((value) => value ?? DEFAULT_ITEM_UNIT),
  categoryId: orNull(idSchema),
  categoryName: orNull(categoryName),
  storedAt: optionalTimestamp,
  expiresAt: optionalTimestamp,
  archivedAt: optionalTimestamp,
  createdAt: optionalTimestamp,
  // Written by the export, not imported: the import's owner becomes the updater.
  updatedAt: z.unknown().optional(),
  barcode: orNull(barcode),
})
  .refine((row) => row.quantity !== 0 || row.archivedAt !== null, {
    path: ["quantity"],
    message: "must be above 0 (0 only for an archived, used-up item)",
  })
  .refine((row) => quantityFitsUnit(row.quantity, row.unit), {
    path: ["quantity"],
    message: `must be a whole number for ${WHOLE_NUMBER_UNITS.join(" and ")}`,
  });

const barcodeRow = z
  .object({
    code: barcode,
    name: itemName,
    unit: orNull(z.enum(BARCODE_UNITS, `must be one of ${BARCODE_UNITS.join(", ")}`)),
    categoryId: orNull(idSchema),
    // Written by the export, not imported: the import's time becomes the entry's.
    updatedAt: z.unknown().optional(),
  })
  .strict();

const shoppingRow = fileRow({
  name: itemName,
  // As when adding an entry through the API: one unless said otherwise.
  quantity: quantity.optional().default(1),
  unit: z
    .enum(SHOPPING_UNITS, `must be one of ${SHOPPING_UNITS.join(", ")}`)
    .optional()
    .transform((value) => value ?? "piece"),
  categoryId: orNull(idSchema),
  // JSON writes a boolean, CSV the word.
  checked: z
    .union([z.boolean(), z.enum(["true", "false"])], "must be true or false")
    .optional()
    .transform((value) => value === true || value === "true"),
  position: position.optional().default(0),
  // Written by the export, not imported: the import's owner and time become the entry's.
  createdAt: z.unknown().optional(),
  updatedAt: z.unknown().optional(),
}).refine((row) => quantityFitsUnit(row.quantity, row.unit), {
  path: ["quantity"],
  message: `must be a whole number for ${WHOLE_NUMBER_UNITS.join(" and ")}`,
});

function problemText(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "row"}: ${issue.message}`).join("; ");
}

type Parsed = ImportRow;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Characters a photo row may hold: the base64 of the largest photo, plus its other fields. */
function photoRowCharacters(maxPhotoBytes: number): number {
  return Math.ceil(maxPhotoBytes / 3) * 4 + 1024;
}

/** A photo row: its item and its image, whose bytes the import decodes like an upload's. */
function parsePhotoRow(value: unknown, row: string, maxPhotoBytes: number): Parsed {
  const parsed = z
    .object({
      itemId: idSchema,
      contentType: z.string("must be a string").max(100, "must be at most 100 characters").optional(),
      data: z
        .string("must be a base64 string")
        .min(1, "must not be empty")
        .max(photoRowCharacters(maxPhotoBytes), `must be at most ${maxPhotoBytes} bytes`)
        .regex(BASE64, "must be base64"),
    })
    .strict()
    .safeParse(value);
  if (!parsed.success) return { kind: "problem", row, message: problemText(parsed.error) };
  const image = Buffer.from(parsed.data.data, "base64");
  if (image.length > maxPhotoBytes)
    return { kind: "problem", row, message: `data: must be at most ${maxPhotoBytes} bytes` };
  return { kind: "photo", row, itemId: parsed.data.itemId, image };
}

function parseRow(kind: FileArray, value: unknown, row: string, maxPhotoBytes = DEFAULT_PHOTO_MAX_BYTES): Parsed {
  if (kind === "history") return { kind: "skipped", row };
  if (kind === "photos") return parsePhotoRow(value, row, maxPhotoBytes);
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
  if (kind === "barcodes") {
    const parsed = barcodeRow.safeParse(value);
    if (!parsed.success) return { kind: "problem", row, message: problemText(parsed.error) };
    const { code, name, unit, categoryId } = parsed.data;
    return { kind: "barcode", row, code, name, unit, categoryId };
  }
  if (kind === "shoppingList") {
    const parsed = shoppingRow.safeParse(value);
    if (!parsed.success) return { kind: "problem", row, message: problemText(parsed.error) };
    const { name, quantity, unit, categoryId, checked, position } = parsed.data;
    return { kind: "shopping", row, name, quantity, unit, categoryId, checked, position };
  }
  if (kind === "categories") {
    const parsed = categoryFileRow.safeParse(value);
    return parsed.success
      ? { kind: "category", row, id: parsed.data.id, name: parsed.data.name, position: parsed.data.position }
      : { kind: "problem", row, message: problemText(parsed.error) };
  }
  const parsed = itemRow.safeParse(value);
  if (!parsed.success) return { kind: "problem", row, message: problemText(parsed.error) };
  const { updatedAt: _updatedAt, ...item } = parsed.data;
  return { kind: "item", row, ...item };
}

const JSON_ARRAYS = new Set([
  "freezers",
  "compartments",
  "categories",
  "items",
  "history",
  "barcodes",
  "shoppingList",
  "photos",
]);
const JSON_META = new Set(["format", "version", "householdId", "exportedAt"]);

/**
 * What one row may hold while it is read, so that memory is bounded by these limits and
 * never by the file: the longest row Hearth writes is about 5 000 characters (notes 2 000,
 * a history row's old and new value 2 000 each), so a row passing the cap is refused at once,
 * before the rest of it is read.
 */
export const HOUSEHOLD_FILE_LIMITS = {
  /** Characters of one row: a CSV record, or a JSON row's keys, strings and numbers. */
  rowCharacters: 16_384,
  /** Cells of one CSV record (the file has CSV_COLUMNS.length columns). */
  csvCells: 64,
  /** Nesting inside one JSON row (rows are flat objects). */
  jsonRowDepth: 8,
  /** Freezer, compartment and item rows of one file (history rows are not counted). */
  rows: 500_000,
} as const;

/** The file as a whole cannot be read (not JSON, wrong top-level shape, no header), or `row` cannot. */
export class FileShapeError extends Error {
  constructor(
    message: string,
    /** The row the reading stopped at (`row 12`, `items[3]`), when one is to blame. */
    readonly row?: string,
  ) {
    super(row ? `${row}: ${message}` : message);
  }
  /** What is wrong, without the row. */
  get reason(): string {
    return this.row ? this.message.slice(this.row.length + 2) : this.message;
  }
}

/** Counts the rows a file defines and refuses more than HOUSEHOLD_FILE_LIMITS.rows. */
function rowCounter(limit: number): (row: Parsed) => Parsed {
  let count = 0;
  return (row) => {
    if (row.kind !== "skipped" && ++count > limit)
      throw new FileShapeError(`an import holds at most ${limit} freezer, compartment and item rows`, row.row);
    return row;
  };
}

/**
 * Builds one JSON row from its tokens with an explicit stack (no recursion over the file's
 * depth), refusing it as soon as it passes the row limits.
 */
class JsonRowBuilder {
  private readonly containers: (Record<string, unknown> | unknown[])[] = [];
  private readonly keys: string[] = [];
  private text = "";
  private characters = 0;
  done = false;
  value: unknown;

  constructor(
    private readonly row: string,
    /** Photo rows hold an image: their cap is the photo limit's base64 length. */
    private readonly maxCharacters: number = HOUSEHOLD_FILE_LIMITS.rowCharacters,
  ) {}

  private count(characters: number): void {
    this.characters += characters;
    if (this.characters > this.maxCharacters)
      throw new FileShapeError(
        this.maxCharacters === HOUSEHOLD_FILE_LIMITS.rowCharacters
          ? `is longer than ${HOUSEHOLD_FILE_LIMITS.rowCharacters} characters, more than any row of a household file holds (notes take at most 2000)`
          : `is longer than ${this.maxCharacters} characters, more than a photo within the photo size limit takes`,
        this.row,
      );
  }

  private add(value: unknown): void {
    const parent = this.containers.at(-1);
    if (parent === undefined) {
      this.value = value;
      this.done = true;
    } else if (Array.isArray(parent)) parent.push(value);
    // Defined rather than assigned: a "__proto__" key is then data like any other.
    else
      Object.defineProperty(parent, this.keys.pop() as string, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }

  consume(token: JsonToken): void {
    this.count(1);
    switch (token.name) {
      case "startObject":
      case "startArray":
        if (this.containers.length >= HOUSEHOLD_FILE_LIMITS.jsonRowDepth)
          throw new FileShapeError(`is nested deeper than ${HOUSEHOLD_FILE_LIMITS.jsonRowDepth} levels`, this.row);
        this.containers.push(token.name === "startObject" ? {} : []);
        return;
      case "endObject":
      case "endArray":
        this.add(this.containers.pop());
        return;
      case "startKey":
      case "startString":
      case "startNumber":
        this.text = "";
        return;
      case "stringChunk":
      case "numberChunk":
        this.count(token.value.length);
        this.text += token.value;
        return;
      case "endKey":
        this.keys.push(this.text);
        return;
      case "endString":
        this.add(detached(this.text));
        return;
      case "endNumber":
        this.add(Number(this.text));
        return;
      case "nullValue":
      case "trueValue":
      case "falseValue":
        this.add(token.value);
        return;
      default:
        // Packed tokens are not asked for; whitespace carries nothing.
        return;
    }
  }
}

/**
 * A copy of `text` that holds on to nothing else. The parser's pieces are slices of its input
 * buffer, and V8 keeps a whole buffer alive for the smallest slice of it: an import keeps every
 * item id until it ends (to find duplicates), so ids sliced from the file kept the whole file
 * in memory (a 200 MB file took the process from 127 to 819 MB). Strings under 13 characters
 * are copied by V8 anyway.
 */
function detached(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, "utf8").toString("utf8");
}

/** The parser's tokens for each chunk of the file, decoded as UTF-8 (a leading BOM dropped). */
async function* jsonTokenBatches(source: Readable): AsyncGenerator<JsonToken[]> {
  // Unpacked: strings, keys and numbers come in pieces, so a huge one is refused by the
  // row limits instead of being collected by the parser first.
  const tokenize = jsonParser({ packValues: false });
  const text = source.pipe(utf8Guard((line) => new FileShapeError(`line ${line} ${NOT_UTF8}`)));
  source.on("error", (error) => text.destroy(error));
  text.setEncoding("utf8");
  let first = true;
  try {
    for await (const chunk of text as AsyncIterable<string>) {
      const tokens = tokenize(first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk);
      first = false;
      if (typeof tokens === "object") yield tokens.values;
    }
  } finally {
    source.destroy();
  }
}

/**
 * The rows of a JSON household file, read token by token: one row in memory at a time, and
 * that row bounded by HOUSEHOLD_FILE_LIMITS.
 */
async function* jsonRows(source: Readable, maxRows: number, maxPhotoBytes: number): AsyncGenerator<Parsed> {
  const counted = rowCounter(maxRows);
  /** Where the reader is: before the document, at its top level, inside a known array, after it. */
  let level: "start" | "top" | "array" | "end" = "start";
  let key: string | null = null;
  /** A top-level key being read. */
  let keyText: string | null = null;
  /** A meta field's value being read past. */
  let skipped: JsonRowBuilder | null = null;
  let array = "items" as FileArray;
  let index = 0;
  let row: JsonRowBuilder | null = null;
  try {
    for await (const batch of jsonTokenBatches(source)) {
      for (const token of batch) {
        if (level === "array") {
          if (!row && token.name === "endArray") {
            level = "top";
            key = null;
            continue;
          }
          row ??= new JsonRowBuilder(
            `${array}[${index}]`,
            array === "photos" ? photoRowCharacters(maxPhotoBytes) : HOUSEHOLD_FILE_LIMITS.rowCharacters,
          );
          row.consume(token);
          if (row.done) {
            yield counted(parseRow(array, row.value, `${array}[${index}]`, maxPhotoBytes));
            index++;
            row = null;
          }
          continue;
        }
        if (level === "start") {
          if (token.name !== "startObject") throw new FileShapeError("the file must be a JSON object");
          level = "top";
          continue;
        }
        if (level === "end") throw new FileShapeError("the file goes on after its JSON object");
        // The top level: a key, then a known array or a meta field's plain value.
        if (keyText !== null) {
          if (token.name === "stringChunk") {
            keyText += token.value;
            if (keyText.length > 64) throw unexpectedAtTop(keyText);
          } else if (token.name === "endKey") {
            key = keyText;
            keyText = null;
          }
          continue;
        }
        if (skipped) {
          skipped.consume(token);
          if (skipped.done) {
            skipped = null;
            key = null;
          }
          continue;
        }
        if (key === null) {
          if (token.name === "startKey") keyText = "";
          else if (token.name === "endObject") level = "end";
          continue;
        }
        if (token.name === "startArray" && JSON_ARRAYS.has(key)) {
          array = key as typeof array;
          index = 0;
          level = "array";
          continue;
        }
        if (!JSON_META.has(key) || token.name === "startObject" || token.name === "startArray")
          throw unexpectedAtTop(key);
        // A meta field's value is read and dropped, under the row limits.
        skipped = new JsonRowBuilder(key);
        skipped.consume(token);
        if (skipped.done) {
          skipped = null;
          key = null;
        }
      }
    }
  } catch (error) {
    if (error instanceof FileShapeError) throw error;
    throw new FileShapeError(`the file is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (level !== "end") throw new FileShapeError("the file ends before its JSON object does");
}

function unexpectedAtTop(key: string): FileShapeError {
  return new FileShapeError(
    `unexpected field "${key.slice(0, 64)}" at the top level (expected freezers, compartments, categories, items, history, barcodes, shoppingList, photos)`,
  );
}

/** The parser's complaint about a record that cannot be read, as the CSV file's row. */
function csvReadError(error: unknown, start: number, header: readonly string[] | null): FileShapeError {
  if (error instanceof FileShapeError) return error;
  if (!(error instanceof CsvError)) throw error;
  const row = `row ${start}`;
  if (error.code === "CSV_MAX_RECORD_SIZE") {
    const index = Number((error as CsvError & { index?: number }).index ?? 0);
    const column = header?.[index] ?? `cell ${index + 1}`;
    return new FileShapeError(
      `${column} passes ${HOUSEHOLD_FILE_LIMITS.rowCharacters} characters, more than any row of a household file holds (notes take at most 2000)`,
      row,
    );
  }
  if (error.code === "CSV_QUOTE_NOT_CLOSED")
    return new FileShapeError(`a quoted field opened on line ${start} is never closed`);
  return new FileShapeError(error.message, row);
}

/**
 * Refuses bytes that are not UTF-8 where they are read, naming the line, instead of letting the
 * decoder turn them into U+FFFD: a spreadsheet's "CSV" in Windows-1252 would otherwise import
 * "Hähnchen" as "H\uFFFDhnchen" in every row, and nothing would say so. Overlong forms and UTF-16
 * surrogates are refused as the standard says (RFC 3629).
 */
function utf8Guard(failure: (line: number) => FileShapeError): Transform {
  let line = 1;
  /** Continuation bytes the current character still needs, and the range the next one must be in. */
  let needed = 0;
  let low = 0x80;
  let high = 0xbf;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index] as number;
        if (needed > 0) {
          if (byte < low || byte > high) return done(failure(line));
          needed--;
          low = 0x80;
          high = 0xbf;
        } else if (byte === 0x0a) line++;
        else if (byte >= 0x80) {
          if (byte >= 0xc2 && byte <= 0xdf) needed = 1;
          else if (byte >= 0xe0 && byte <= 0xef) {
            needed = 2;
            if (byte === 0xe0) low = 0xa0;
            else if (byte === 0xed) high = 0x9f;
          } else if (byte >= 0xf0 && byte <= 0xf4) {
            needed = 3;
            if (byte === 0xf0) low = 0x90;
            else if (byte === 0xf4) high = 0x8f;
          } else return done(failure(line));
        }
      }
      done(null, chunk);
    },
    flush(done) {
      done(needed > 0 ? failure(line) : null);
    },
  });
}

/** What a file that is not UTF-8 is told, in either format. */
const NOT_UTF8 = 'is not UTF-8 text; save the file as UTF-8 (in a spreadsheet: "CSV UTF-8") and import it again';

/**
 * Refuses a line with more commas than a record can hold before the CSV parser builds its
 * cells: the parser's record limit counts characters, and empty cells have none. A record's
 * commas are its separators plus those inside its text, so the bound is the row limit plus
 * the cells; counting per line needs no knowledge of quotes.
 */
function commaGuard(): Transform {
  const limit = HOUSEHOLD_FILE_LIMITS.rowCharacters + HOUSEHOLD_FILE_LIMITS.csvCells;
  let line = 1;
  let commas = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let index = 0; index < chunk.length; index++) {
        const byte = chunk[index];
        if (byte === 0x0a) {
          line++;
          commas = 0;
        } else if (byte === 0x2c && ++commas > limit) {
          done(new FileShapeError(`has more than ${HOUSEHOLD_FILE_LIMITS.csvCells} cells`, `row ${line}`));
          return;
        }
      }
      done(null, chunk);
    },
  });
}

/**
 * RFC 4180 records of a CSV stream, one at a time, with the line each starts on, read by
 * csv-parse under HOUSEHOLD_FILE_LIMITS: a record passing them is refused while it is read.
 */
async function* csvRecords(source: Readable): AsyncGenerator<{ line: number; cells: string[] }> {
  /** The line the last complete record ended on: the parser reports each before a later one can fail. */
  let lastLine = 0;
  /** The header as the parser saw it (records read before a failure never reach the loop below). */
  let header: string[] | null = null;
  const options: CsvOptions<{ line: number; cells: string[] }, string[]> = {
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: HOUSEHOLD_FILE_LIMITS.rowCharacters,
    on_record: (cells: string[], context: InfoRecord) => {
      const line = lastLine + 1;
      lastLine = context.lines;
      if (header === null && !isBlank(cells)) header = cells.map((cell) => cell.trim());
      return { line, cells };
    },
  };
  const text = utf8Guard((line) => new FileShapeError(NOT_UTF8, `row ${line}`));
  const guard = commaGuard();
  // The typings tie on_record's result to string[]; the parser passes on whatever it returns.
  const records = source
    .pipe(text)
    .pipe(guard)
    .pipe(parseCsv(options as unknown as CsvOptions));
  text.on("error", (error) => records.destroy(error));
  guard.on("error", (error) => records.destroy(error));
  try {
    for await (const record of records as AsyncIterable<{ line: number; cells: string[] }>) {
      if (!isBlank(record.cells)) yield record;
    }
  } catch (error) {
    throw csvReadError(error, lastLine + 1, header);
  } finally {
    source.destroy();
  }
}

/** A blank line holds no record. */
function isBlank(cells: string[]): boolean {
  return cells.length === 1 && cells[0] === "";
}

const CSV_NUMBER_FIELDS = new Set(["quantity", "position"]);
const CSV_RECORD_ARRAY: Record<string, FileArray> = {
  freezer: "freezers",
  compartment: "compartments",
  category: "categories",
  item: "items",
  history: "history",
  barcode: "barcodes",
  shopping: "shoppingList",
};
/** Columns each record kind reads, from its row schema (empty cells of the others are fine). */
const CSV_FIELDS: Record<string, readonly string[]> = {
  // CSV has one notes column; a freezer's description is read from it.
  freezers: Object.keys(freezerRow.shape).map((field) => (field === "description" ? "notes" : field)),
  compartments: Object.keys(compartmentRow.shape),
  categories: Object.keys(categoryFileRow.shape),
  items: Object.keys(itemRow.shape),
  history: [],
  // CSV has one barcode column; a remembered barcode's code is read from it.
  barcodes: Object.keys(barcodeRow.shape).map((field) => (field === "code" ? "barcode" : field)),
  shoppingList: Object.keys(shoppingRow.shape),
};

/** The rows of a CSV household file; cells are typed (numbers, empty → null) before validation. */
async function* csvRows(source: Readable, maxRows: number): AsyncGenerator<Parsed> {
  let header: string[] | null = null;
  const counted = rowCounter(maxRows);
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
    // Own keys only: a record named "constructor" or "__proto__" is not a kind of row.
    const array =
      values.record === undefined
        ? "items"
        : Object.hasOwn(CSV_RECORD_ARRAY, values.record)
          ? CSV_RECORD_ARRAY[values.record]
          : undefined;
    if (!array) {
      yield {
        kind: "problem",
        row,
        message: `record must be one of freezer, compartment, category, item, history, barcode, shopping (not "${values.record}")`,
      };
      continue;
    }
    const typed: Record<string, unknown> = {};
    for (const field of CSV_FIELDS[array] as string[]) {
      const value = values[field];
      if (value === undefined || value === "") continue;
      const target =
        array === "freezers" && field === "notes"
          ? "description"
          : array === "barcodes" && field === "barcode"
            ? "code"
            : field;
      typed[target] = CSV_NUMBER_FIELDS.has(field) && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    }
    yield counted(parseRow(array, typed, row));
  }
  if (!header) throw new FileShapeError("the CSV file is empty (it needs a header row)");
}

/** The rows of a household file in `format`, validated one by one. */
export function readHouseholdFile(
  source: Readable,
  format: HouseholdFileFormat,
  options: { maxRows?: number; maxPhotoBytes?: number } = {},
): AsyncIterable<ImportRow> {
  const maxRows = options.maxRows ?? HOUSEHOLD_FILE_LIMITS.rows;
  const maxPhotoBytes = options.maxPhotoBytes ?? DEFAULT_PHOTO_MAX_BYTES;
  return format === "csv" ? csvRows(source, maxRows) : jsonRows(source, maxRows, maxPhotoBytes);
}
