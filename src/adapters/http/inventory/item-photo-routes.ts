import express, { type Request, type RequestHandler, type Router } from "express";
import { z } from "zod";
import type { HouseholdAccess } from "../../../application/inventory/household-access.js";
import type { ItemPhotoUseCases } from "../../../application/inventory/items/item-photo-use-cases.js";
import { PHOTO_SIZES, PhotoTooLargeError } from "../../../domain/inventory/item-photo.js";
import { currentUserId } from "./authenticate.js";
import { Turns } from "../../../domain/shared/turns.js";
import { HttpError } from "./http-errors.js";
import { itemParams, itemResponse, toItemResponse } from "./item-schemas.js";
import { BEARER_AUTH, errorResponses, type OpenAPIRegistry } from "./openapi.js";
import { NOTHING, validateRequest } from "./routes.js";

export { DEFAULT_PHOTO_MAX_BYTES } from "./photo-limits.js";

/** The photo of one item, under the API's base path. */
export const PHOTO_PATH = "/households/{hid}/items/{iid}/photo";

/**
 * Content types an upload may declare. The header only admits the request: what the bytes
 * are is read from the bytes themselves, and anything the image library cannot decode (or
 * that is not JPEG, PNG, WebP or HEIF/AVIF, whatever the header said) is refused with 415.
 */
export const PHOTO_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif", "image/avif"];

/** A year: a photo URL names its version, so what it answers never changes. */
const IMMUTABLE = "private, max-age=31536000, immutable";

const photoQuery = z
  .object({
    size: z
      .enum(PHOTO_SIZES, `must be one of ${PHOTO_SIZES.join(", ")}`)
      .optional()
      .default("display")
      .openapi({ description: "thumb: 256×256 square for lists; display (default): longest side 1280" }),
    v: z.string("must be a single string").max(40, "must be at most 40 characters").optional().openapi({
      description: "The photo's version, as the item's photo URLs carry it; makes the answer cacheable for good",
    }),
  })
  .strict();

export interface ItemPhotoRouterDependencies {
  useCases: ItemPhotoUseCases;
  authenticate: RequestHandler;
  access?: HouseholdAccess;
  /** Largest upload in bytes (PHOTO_MAX_BYTES). */
  maxBytes: number;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * Reads the request body into memory, refusing it as soon as it grows past `maxBytes`. Memory
 * is bounded by the limit, never by what the client sends. A declared Content-Length over the
 * limit is refused before a byte is kept. Either way the 413 goes out while the rest of the
 * body is read and dropped: closing a connection with unread data resets it, and the client
 * (a browser above all) would then report a network failure instead of the answer. A declared
 * body ends where it said; an undeclared (chunked) one is cut off after twice the limit more.
 */
export function readLimitedBody(req: Request, maxBytes: number): Promise<Buffer> {
  const tooLarge = (undeclared: boolean) => {
    req.resume();
    if (undeclared) {
      let dropped = 0;
      req.on("data", (chunk: Buffer) => {
        dropped += chunk.length;
        if (dropped > 2 * maxBytes) req.socket.destroy();
      });
    }
    return new PhotoTooLargeError(`the file is larger than ${megabytes(maxBytes)}`);
  };
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(false));
  // Gone while it waited for its turn: no 'close' is coming to end the read.
  if (req.destroyed && !req.complete)
    return Promise.reject(new HttpError("VALIDATION_FAILED", "The upload ended before the whole photo arrived"));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      chunks.length = 0;
      reject(tooLarge(true));
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // A client that goes away mid-upload ends the read; nothing half-sent is ever decoded.
    const onClose = () => {
      if (req.complete) return;
      cleanup();
      chunks.length = 0;
      reject(new HttpError("VALIDATION_FAILED", "The upload ended before the whole photo arrived"));
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/** The media type of a request, without parameters, lower-case. */
function mediaType(req: Request): string {
  return (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * What the photo uploads being read or decoded may hold in memory together. Each holds its
 * whole body until it is stored, and any account can send many at once: past the budget, an
 * upload waits for a slot with its bytes unread (in the socket, where TCP holds the sender
 * back), not in the process.
 */
export const PHOTO_BODY_BUDGET_BYTES = 48 * 1024 * 1024;

/** Uploads whose bodies may be in memory at once: at least two, so one slow sender cannot hold up every other. */
export function photoUploadSlots(maxBytes: number): number {
  return Math.max(2, Math.floor(PHOTO_BODY_BUDGET_BYTES / maxBytes));
}

function uploadHandler(deps: ItemPhotoRouterDependencies): RequestHandler {
  const slots = new Turns(photoUploadSlots(deps.maxBytes));
  return async (req, res) => {
    const { hid, iid } = res.locals.params as z.output<typeof itemParams>;
    let read = false;
    let holding = false;
    try {
      if (!PHOTO_CONTENT_TYPES.includes(mediaType(req))) {
        throw new HttpError(
          "UNSUPPORTED_MEDIA_TYPE",
          `Send the photo as the request body with Content-Type ${PHOTO_CONTENT_TYPES.join(", ")}`,
          [{ path: "content-type", message: `must be one of ${PHOTO_CONTENT_TYPES.join(", ")}` }],
        );
      }
      const item = await deps.useCases.setItemPhoto.execute({
        householdId: hid,
        itemId: iid,
        userId: currentUserId(res),
        image: async () => {
          read = true;
          await slots.take();
          holding = true;
          return readLimitedBody(req, deps.maxBytes);
        },
      });
      res.status(200).json(toItemResponse(item));
    } finally {
      // The body is not referenced past this point: the next upload may read its own.
      if (holding) slots.give();
      // A body left unread (refused before reading) is drained so the connection stays usable.
      if (!read) req.resume();
    }
  };
}

function downloadHandler(deps: ItemPhotoRouterDependencies): RequestHandler {
  return async (req, res) => {
    const { hid, iid } = res.locals.params as z.output<typeof itemParams>;
    const { size, v } = res.locals.query as z.output<typeof photoQuery>;
    const photo = await deps.useCases.getItemPhoto.execute({
      householdId: hid,
      itemId: iid,
      userId: currentUserId(res),
      size,
    });
    const version = String(photo.updatedAt.getTime());
    res.set("Content-Type", photo.contentType);
    // Only a URL naming the current version may be kept for good; any other is revalidated.
    res.set("Cache-Control", v === version ? IMMUTABLE : "private, no-cache");
    res.set("ETag", `"${version}-${size}"`);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.status(200).send(Buffer.from(photo.image.buffer, photo.image.byteOffset, photo.image.byteLength));
  };
}

function removeHandler(deps: ItemPhotoRouterDependencies): RequestHandler {
  return async (_req, res) => {
    const { hid, iid } = res.locals.params as z.output<typeof itemParams>;
    const item = await deps.useCases.removeItemPhoto.execute({
      householdId: hid,
      itemId: iid,
      userId: currentUserId(res),
    });
    res.status(200).json(toItemResponse(item));
  };
}

/**
 * The photo routes, for mounting at /api/v1 before the app's JSON parser: an upload's body is
 * the image itself, read here under the size limit.
 */
export function createItemPhotoRouter(deps: ItemPhotoRouterDependencies): Router {
  const router = express.Router();
  const path = PHOTO_PATH.replace(/\{(\w+)\}/g, ":$1");
  const input = (query: z.ZodObject<z.ZodRawShape>) =>
    validateRequest({ params: itemParams, query, body: false }, { access: deps.access, role: "member" });
  router.put(path, deps.authenticate, input(NOTHING), uploadHandler(deps));
  router.get(path, deps.authenticate, input(photoQuery), downloadHandler(deps));
  router.delete(path, deps.authenticate, input(NOTHING), removeHandler(deps));
  return router;
}

/** Adds the photo paths to the OpenAPI document. */
export function registerItemPhotoOpenApi(registry: OpenAPIRegistry, maxBytes: number): void {
  const binary = { type: "string" as const, format: "binary" };
  const tags = ["Item photos"];
  const security = [{ [BEARER_AUTH]: [] }];
  registry.registerPath({
    method: "put",
    path: PHOTO_PATH,
    summary: "Set or replace an active item's photo (member): the image itself is the request body",
    description:
      `JPEG, PNG or WebP; HEIF only where the server's image library decodes it (its prebuilt binaries read AVIF, ` +
      `not the HEVC-coded HEIC of iPhones: those are refused with 415). At most PHOTO_MAX_BYTES ` +
      `(this server: ${megabytes(maxBytes)}, default 10 MB; 413, read no further) and 50 megapixels (413). ` +
      "The server keeps a 256×256 thumbnail and a display size (longest side 1280), both JPEG, turned upright by " +
      "the EXIF orientation and stripped of all metadata (location included). A file that cannot be decoded is " +
      "415. Bad input changes nothing. The item's `photo` field, its history (field `photo`) and an " +
      '`item.updated` event (changes `["photo"]`) follow the change.',
    tags,
    security,
    request: {
      params: itemParams,
      body: {
        required: true,
        content: Object.fromEntries(PHOTO_CONTENT_TYPES.map((type) => [type, { schema: binary }])),
      },
    },
    responses: {
      200: { description: "The item with its new photo", content: { "application/json": { schema: itemResponse } } },
      ...errorResponses([400, 401, 403, 404, 409, 413, 415, 429, 500, 503]),
    },
  });
  registry.registerPath({
    method: "get",
    path: PHOTO_PATH,
    summary: "One size of an item's photo (member), as JPEG",
    description:
      "With `v` equal to the photo's version (as in the item's `photo` URLs) the answer is `Cache-Control: private, " +
      "max-age=31536000, immutable`; otherwise `private, no-cache`. `ETag` and `If-None-Match` (304) work either way. " +
      "404 PHOTO_NOT_FOUND when the item has no photo (or is not the household's).",
    tags,
    security,
    request: { params: itemParams, query: photoQuery },
    responses: {
      200: {
        description: "The image",
        headers: {
          ETag: { description: "The photo's version and size", schema: { type: "string" } },
          "Cache-Control": { description: "See the description", schema: { type: "string" } },
        },
        content: { "image/jpeg": { schema: binary } },
      },
      304: { description: "Not modified (If-None-Match)" },
      ...errorResponses([400, 401, 403, 404, 429, 500]),
    },
  });
  registry.registerPath({
    method: "delete",
    path: PHOTO_PATH,
    summary: "Remove an active item's photo (member); an item without a photo is answered unchanged",
    tags,
    security,
    request: { params: itemParams },
    responses: {
      200: { description: "The item without its photo", content: { "application/json": { schema: itemResponse } } },
      ...errorResponses([400, 401, 403, 404, 409, 429, 500]),
    },
  });
}
