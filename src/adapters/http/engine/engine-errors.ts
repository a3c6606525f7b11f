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
 * `details`, 415 unsupported charset), domain errors into the catalogue's status, and
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
    logger.error("Engine HTTP request failed", { method: req.method, path: req.path, err: error });
    sendError(res, 500, "Internal error; see the engine log");
  };
}
