import type { HouseholdAccess } from "../../../application/inventory/household-access.js";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import { z } from "zod";
import type { ExportHousehold } from "../../../application/inventory/transfer/export-household.js";
import type { ImportHousehold } from "../../../application/inventory/transfer/import-household.js";
import type {
  GetReminderSettings,
  UpdateReminderSettings,
} from "../../../application/inventory/reminders/reminder-settings.js";
import type { ImportRow } from "../../../domain/inventory/household-transfer.js";
import { Turns } from "../../../domain/shared/turns.js";
import { currentUserId } from "./authenticate.js";
import {
  FileShapeError,
  type HouseholdFileFormat,
  readHouseholdFile,
  writeHouseholdFile,
} from "./household-file-format.js";
import { HttpError } from "./http-errors.js";
import { householdParams } from "./household-schemas.js";
import { BEARER_AUTH, errorResponses, type OpenAPIRegistry } from "./openapi.js";
import { remindersResponse, toRemindersResponse, updateRemindersBody } from "./reminder-schemas.js";
import { defineRoute, mountRoutes, type RouteDefinition, registerRoutes, validateRequest } from "./routes.js";

/** Where the app mounts the household data router (before its own JSON parser: imports stream). */
export const HOUSEHOLD_PATH = "/households/{hid}";

export interface HouseholdDataUseCases {
  getReminderSettings: GetReminderSettings;
  updateReminderSettings: UpdateReminderSettings;
  exportHousehold: ExportHousehold;
  importHousehold: ImportHousehold;
}

/** Largest import accepted; the file is spooled to disk, never held in memory. */
export const IMPORT_MAX_BYTES = 512 * 1024 * 1024;

const exportQuery = z
  .object({ format: z.enum(["json", "csv"], "must be json or csv").optional().default("json") })
  .strict();
const importQuery = z
  .object({
    format: z.enum(["json", "csv"], "must be json or csv").optional(),
    dryRun: z
      .enum(["true", "false"], "must be true or false")
      .optional()
      .transform((value) => value === "true")
      .openapi({ description: "true: check the file and answer what would change, writing nothing" }),
  })
  .strict();

const importSummaryResponse = z
  .object({
    freezersCreated: z.number().int(),
    compartmentsCreated: z.number().int(),
    itemsCreated: z.number().int(),
    itemsUnchanged: z
      .number()
      .int()
      .openapi({ description: "Items of the file already in the household (same id), left alone" }),
    categoriesCreated: z
      .number()
      .int()
      .openapi({ description: "Categories of the file the household had no category of that name for" }),
    barcodesRemembered: z
      .number()
      .int()
      .openapi({ description: "Barcodes the household had not remembered; one it remembers keeps what it has" }),
    shoppingEntriesAdded: z.number().int().openapi({
      description:
        "Shopping-list entries added at the end of the list; one the list already holds (same name, ignoring case, and unit) is not added again",
    }),
  })
  .openapi("ImportSummary");

/** The import's format: `?format=`, else the body's content type. */
function importFormat(req: Request, query: z.output<typeof importQuery>): HouseholdFileFormat {
  if (query.format) return query.format;
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "text/csv") return "csv";
  if (type === "application/json") return "json";
  throw new HttpError(
    "UNSUPPORTED_MEDIA_TYPE",
    "Send the file as application/json or text/csv (or name it with ?format=json|csv)",
    [{ path: "content-type", message: "must be application/json or text/csv" }],
  );
}

/** The Content-Encodings an import may be sent in; each decodes as a stream. */
const IMPORT_DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  "x-gzip": () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

/**
 * The decoder for the body's Content-Encoding, or null for none: one (not a list of several)
 * of gzip, deflate and br, else 415 as RFC 9110 says, before anything is read.
 */
function importDecoder(req: Request): (() => Transform) | null {
  const encoding = (req.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding === "" || encoding === "identity") return null;
  const decoder = Object.hasOwn(IMPORT_DECODERS, encoding) ? IMPORT_DECODERS[encoding] : undefined;
  if (!decoder)
    throw new HttpError(
      "UNSUPPORTED_MEDIA_TYPE",
      "Send the file uncompressed, or with Content-Encoding gzip, deflate or br",
      [{ path: "content-encoding", message: "must be gzip, deflate, br or identity" }],
    );
  return decoder;
}

/**
 * Imports read at once, process-wide. Each spools up to the import limit to disk: without a
 * bound, one account with a few households could fill the disk the database lives on. The
 * others wait for a turn with their bytes unread, held back by TCP.
 */
export const IMPORTS_AT_ONCE = 2;
/** A full disk (or quota) while spooling is the server's lack of room, said as such; else null. */
export function spoolFailure(error: unknown): HttpError | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== "ENOSPC" && code !== "EDQUOT") return null;
  return new HttpError(
    "IMPORT_NO_SPACE",
    "The server's disk has no room left for the import file; nothing was written. Free some space and send it again",
  );
}

/**
 * Copies the request body to a file, decoded as its Content-Encoding says, refusing more than
 * `maxBytes` of the file itself: a small compressed body cannot unpack past the limit.
 */
async function spool(req: Request, file: string, decoder: (() => Transform) | null, maxBytes: number): Promise<void> {
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes)
        done(new HttpError("PAYLOAD_TOO_LARGE", `The import is larger than ${maxBytes / 1024 / 1024} MB`));
      else done(null, chunk);
    },
  });
  try {
    if (decoder) await pipeline(req, decoder(), limit, createWriteStream(file));
    else await pipeline(req, limit, createWriteStream(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // zlib's own errors carry Z_* codes, brotli's ERR_BROTLI_*/ERR__ ones.
    if (
      typeof code === "string" &&
      (code.startsWith("Z_") || code.startsWith("ERR_BROTLI") || code.startsWith("ERR__"))
    )
      throw new HttpError(
        "IMPORT_INVALID",
        "The file cannot be read: it does not decompress as its Content-Encoding says",
        [{ path: "file", message: `not valid ${req.headers["content-encoding"]} data (${(error as Error).message})` }],
      );
    throw spoolFailure(error) ?? error;
  }
}

/** GET …/export: checks the membership, then streams the file. */
function exportHandler(useCases: HouseholdDataUseCases): RequestHandler {
  return async (_req, res: Response) => {
    const { hid } = res.locals.params as { hid: string };
    const { format } = res.locals.query as z.output<typeof exportQuery>;
    const records = await useCases.exportHousehold.execute({ householdId: hid, userId: currentUserId(res) });
    res.status(200);
    res.setHeader("Content-Type", format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8");
    res.setHeader("Content-Disposition", `attachment; filename="household-${hid}.${format}"`);
    try {
      await writeHouseholdFile(records, res, format, { householdId: hid, exportedAt: new Date() });
      res.end();
    } catch (error) {
      // Headers are out: the client sees a cut-off download rather than a wrong file.
      res.destroy(error instanceof Error ? error : undefined);
    }
  };
}

/**
 * POST …/import: the body is spooled to a file in `spoolDir` once the use case has checked the
 * caller is the owner, then read twice (validation, then the all-or-nothing write). At most
 * {@link IMPORTS_AT_ONCE} imports are read at once; another waits for its turn before a byte of
 * it is read.
 */
function importHandler(
  useCases: HouseholdDataUseCases,
  options: { maxPhotoBytes: number | undefined; maxBytes: number; spoolDir: string; turns: Turns },
): RequestHandler {
  const { maxPhotoBytes, maxBytes, spoolDir, turns } = options;
  return async (req, res) => {
    const { hid } = res.locals.params as { hid: string };
    const format = importFormat(req, res.locals.query as z.output<typeof importQuery>);
    const decoder = importDecoder(req);
    await mkdir(spoolDir, { recursive: true });
    const folder = await mkdtemp(path.join(spoolDir, "hearth-import-"));
    const file = path.join(folder, `import.${format}`);
    let spooled: Promise<void> | undefined;
    let turn = false;
    /** Waits for a turn, then spools; asked for only once the caller is known to be the owner. */
    const spoolInTurn = async () => {
      await turns.take();
      turn = true;
      await spool(req, file, decoder, maxBytes);
    };
    let summary: Awaited<ReturnType<ImportHousehold["execute"]>>;
    try {
      summary = await useCases.importHousehold.execute({
        householdId: hid,
        userId: currentUserId(res),
        dryRun: (res.locals.query as z.output<typeof importQuery>).dryRun,
        rows: () =>
          (async function* (): AsyncGenerator<ImportRow> {
            spooled ??= spoolInTurn();
            await spooled;
            try {
              yield* readHouseholdFile(
                createReadStream(file),
                format,
                maxPhotoBytes === undefined ? {} : { maxPhotoBytes },
              );
            } catch (error) {
              if (error instanceof FileShapeError)
                throw new HttpError("IMPORT_INVALID", `The file cannot be read: ${error.message}`, [
                  { path: error.row ?? "file", message: error.reason },
                ]);
              throw error;
            }
          })(),
      });
    } finally {
      // An unread body (refused before spooling) is drained so the connection stays usable.
      if (!spooled) req.resume();
      await rm(folder, { recursive: true, force: true });
      if (turn) turns.give();
    }
    // Answered once the spool is gone and the turn given back: the next import may follow at once.
    res.status(200).json(summary);
  };
}

/** Reminder settings, export and import of one household, described once for express and OpenAPI. */
export function householdDataRoutes(useCases: HouseholdDataUseCases): RouteDefinition[] {
  return [
    defineRoute({
      method: "get",
      path: `${HOUSEHOLD_PATH}/reminders`,
      summary: "The household's expiry-reminder settings (defaults until the owner saves some)",
      tags: ["Reminders"],
      params: householdParams,
      access: "member",
      status: 200,
      response: remindersResponse,
      handler: async ({ userId, params }) =>
        toRemindersResponse(await useCases.getReminderSettings.execute({ userId, householdId: params.hid })),
    }),
    defineRoute({
      method: "put",
      path: `${HOUSEHOLD_PATH}/reminders`,
      summary: "Change the expiry-reminder settings (owner): enabled, days ahead, local time of day, ntfy topic",
      tags: ["Reminders"],
      params: householdParams,
      access: "owner",
      body: updateRemindersBody,
      status: 200,
      response: remindersResponse,
      handler: async ({ userId, params, body }) =>
        toRemindersResponse(
          await useCases.updateReminderSettings.execute({ userId, householdId: params.hid, ...body }),
        ),
    }),
  ];
}

export interface HouseholdDataRouterDependencies {
  useCases: HouseholdDataUseCases;
  authenticate: express.RequestHandler;
  /** Turns away outsiders before telling them what was wrong with their input. */
  access?: HouseholdAccess;
  /** Parses JSON bodies (the app's own parser runs after this router). */
  json: express.RequestHandler[];
  /** Largest photo of an imported file (PHOTO_MAX_BYTES); default 10 MB. */
  photoMaxBytes?: number;
  /** Largest import, decompressed; default {@link IMPORT_MAX_BYTES}. */
  importMaxBytes?: number;
  /** Where imports are spooled while read (DATA_DIR/import-spool under Hearth); default the system's temporary directory. */
  spoolDir?: string;
}

/** The router for mounting at /api/v1/households/:hid (with mergeParams). */
export function createHouseholdDataRouter(deps: HouseholdDataRouterDependencies): Router {
  const router = express.Router({ mergeParams: true });
  const routes = householdDataRoutes(deps.useCases);
  // The JSON parser runs for the reminder routes only: an import's body is streamed, not parsed.
  const reminders = express.Router({ mergeParams: true });
  mountRoutes(
    reminders,
    routes.filter((route) => route.path.endsWith("/reminders")),
    {
      authenticate: deps.authenticate,
      stripPrefix: `${HOUSEHOLD_PATH}/reminders`,
      ...(deps.access ? { access: deps.access } : {}),
    },
  );
  router.use("/reminders", ...deps.json, reminders);
  const input = (query: z.ZodObject<z.ZodRawShape>, role: "member" | "owner") =>
    validateRequest({ params: householdParams, query, body: false }, { access: deps.access, role });
  router.get("/export", deps.authenticate, input(exportQuery, "member"), exportHandler(deps.useCases));
  router.post(
    "/import",
    deps.authenticate,
    input(importQuery, "owner"),
    importHandler(deps.useCases, {
      maxPhotoBytes: deps.photoMaxBytes,
      maxBytes: deps.importMaxBytes ?? IMPORT_MAX_BYTES,
      spoolDir: deps.spoolDir ?? tmpdir(),
      turns: new Turns(IMPORTS_AT_ONCE),
    }),
  );
  return router;
}

/** Adds the reminder, export and import paths to the OpenAPI document. */
export function registerHouseholdDataOpenApi(registry: OpenAPIRegistry): void {
  registry.register("ReminderSettings", remindersResponse);
  // Only the descriptions are read here; no handler runs during registration.
  registerRoutes(registry, householdDataRoutes({} as HouseholdDataUseCases));
  registry.register("ImportSummary", importSummaryResponse);
  registry.registerPath({
    method: "get",
    path: `${HOUSEHOLD_PATH}/export`,
    summary:
      "Export the household (member): freezers, compartments, items (active and archived) and history, streamed as JSON or CSV (a CSV cell starting with =, +, -, @, tab or CR gets a leading ' so spreadsheets do not run it; import removes it)",
    tags: ["Export and import"],
    security: [{ [BEARER_AUTH]: [] }],
    request: { params: householdParams, query: exportQuery },
    responses: {
      200: {
        description: "The household file",
        content: { "application/json": { schema: { type: "object" } }, "text/csv": { schema: { type: "string" } } },
      },
      ...errorResponses([400, 401, 403, 429, 500]),
    },
  });
  registry.registerPath({
    method: "post",
    path: `${HOUSEHOLD_PATH}/import`,
    summary:
      "Import a household file (owner): every row is validated first (400 with the row numbers and reasons, nothing written; ids of another household are refused), then written all or nothing (on PGlite in short transactions taken back on failure), one import of the household at a time; items already present (same id) are left alone; named missing freezers and compartments are created once. The file may be sent with Content-Encoding gzip, deflate or br (the 512 MB limit counts it unpacked; another encoding is a 415). With ?dryRun=true the same checks run and the answer says what the import would create and leave unchanged, writing nothing (a preview). The server reads two imports at once (of all households); another waits for its turn before it is read. A disk without room for the file answers 507",
    tags: ["Export and import"],
    security: [{ [BEARER_AUTH]: [] }],
    request: {
      params: householdParams,
      query: importQuery,
      body: {
        required: true,
        content: { "application/json": { schema: { type: "object" } }, "text/csv": { schema: { type: "string" } } },
      },
    },
    responses: {
      200: { description: "What was imported", content: { "application/json": { schema: importSummaryResponse } } },
      ...errorResponses([400, 401, 403, 413, 415, 429, 500, 503, 507]),
    },
  });
}
