import { STATUS_CODES } from "node:http";
import type { ErrorRequestHandler, Response } from "express";
import type { z } from "zod";
import { DomainError, type ErrorDetail } from "../../../domain/shared/domain-error.js";
import type { Logger } from "../../../ports/logger.js";
import { statusOf } from "../error-status.js";

/** Largest request body the engine HTTP server reads. */
export const ENGINE_BODY_LIMIT = "1mb";

export type { ErrorDetail };

/** Every engine API error body: `{ error, message, details? }`. */
export function sendError(res: Response, status: number, message: string, details?: ErrorDetail[]): void {
  res.status(status).json({ error: STATUS_CODES[status] ?? "Error", message, ...(details ? { details } : {}) });
}

export function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/**
 * Turns body-parser failures into JSON error bodies (413 too large, 400 malformed with
 * `details`, 415 unsupported charset, 400 a body that cannot be decompressed), a path the
 * router cannot percent-decode into a 400, domain errors into the catalogue's status, and
 * anything else into a 500 without internals.
 */
export function engineErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const parserError = error as BodyParserError;
    switch (parserError?.type) {
      case "entity.too.large":
        sendError(res, 413, `Request body is larger than ${ENGINE_BODY_LIMIT}`);
        return;
      case "entity.parse.failed":
        sendError(res, 400, "Request body is not valid JSON", [
          { path: "", message: parserError.message ?? "malformed JSON" },
        ]);
        return;
      case "encoding.unsupported":
      case "charset.unsupported":
        sendError(res, 415, parserError.message ?? "Unsupported body encoding");
        return;
      case "request.aborted":
      case "request.size.invalid":
      case "stream.encoding.set":
        sendError(res, 400, parserError.message ?? "Could not read the request body");
        return;
    }
    if (error instanceof DomainError) {
      sendError(res, statusOf(error.code), error.message, error.details);
      return;
    }
    // The router could not percent-decode a path segment (`/api/state/%E0%A4`).
    if (error instanceof URIError) {
      sendError(res, 400, "Malformed percent-encoding in the path");
      return;
    }
    // Other failures body-parser blames on the request, such as a body whose Content-Encoding
    // does not match its bytes (zlib's Z_* codes).
    const clientStatus = parserError?.status;
    if (typeof clientStatus === "number" && clientStatus >= 400 && clientStatus < 500) {
      const code = (error as { code?: unknown }).code;
      const compressed = typeof code === "string" && code.startsWith("Z_");
      sendError(
        res,
        clientStatus,
        compressed
          ? `Request body cannot be decompressed as its Content-Encoding says (${parserError.message ?? code})`
          : (STATUS_CODES[clientStatus] ?? "Bad request"),
      );
      return;
    }
    logger.error("Engine HTTP request failed", { method: req.method, path: req.path, err: error });
    sendError(res, 500, "Internal error; see the engine log");
  };
}
