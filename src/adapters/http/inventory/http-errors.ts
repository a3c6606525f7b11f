import { STATUS_CODES } from "node:http";
import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import { DomainError, type ErrorDetail } from "../../../domain/shared/domain-error.js";
import type { ErrorCode } from "../../../domain/shared/error-codes.js";
import type { Logger } from "../../../ports/logger.js";
import { statusOf } from "../error-status.js";

export type { ErrorDetail };

/** The one body every inventory error has (ARCHITECTURE.md "Errors"). */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: ErrorDetail[];
}

/**
 * The response header that names an error's code (docs/error-codes.md). The body keeps the
 * documented `{ statusCode, error, message, details? }`; clients that tell errors apart by
 * more than the status (the app's sentences in every language) read the code here.
 */
export const ERROR_CODE_HEADER = "Hearth-Error-Code";

/** Failures of the HTTP layer itself (unknown route, body too large, ...), with the same code scheme. */
export class HttpError extends DomainError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    details?: ErrorDetail[],
  ) {
    super(message, details);
  }
}

/** An error whose body carries more than the standard fields (e.g. the current item of a 412). */
export class HttpErrorWithBody extends HttpError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message);
  }
}

export function errorBody(statusCode: number, message: string, details?: ErrorDetail[]): ErrorBody {
  const body: ErrorBody = { statusCode, error: STATUS_CODES[statusCode] ?? "Error", message };
  if (details) body.details = details;
  return body;
}

export function sendError(res: Response, statusCode: number, message: string, details?: ErrorDetail[]): void {
  if (statusCode === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="hearth"');
  res.status(statusCode).json(errorBody(statusCode, message, details));
}

/** JSON 404 for every path no router claimed. */
export const routeNotFound: RequestHandler = (req, _res, next) => {
  next(new HttpError("ROUTE_NOT_FOUND", `Route ${req.method} ${req.path} not found`));
};

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** Maps what body-parser throws (too large, bad JSON, bad charset) to our codes. */
function fromBodyParser(error: BodyParserError & Error): HttpError | null {
  switch (error.type) {
    case "entity.too.large":
      return new HttpError("PAYLOAD_TOO_LARGE", "Request body is larger than 100 kB");
    case "entity.parse.failed":
      return new HttpError("MALFORMED_JSON", "Request body is not valid JSON", [
        { path: "", message: "malformed JSON" },
      ]);
    case "encoding.unsupported":
    case "charset.unsupported":
      return new HttpError("UNSUPPORTED_MEDIA_TYPE", error.message);
    default:
      return null;
  }
}

/** The router could not percent-decode a path segment (`/households/%E0%A4`): a malformed id. */
function fromRouter(error: Error): HttpError | null {
  if (!(error instanceof URIError)) return null;
  return new HttpError("VALIDATION_FAILED", "Path parameters invalid", [
    { path: "", message: "malformed percent-encoding in the path" },
  ]);
}

/** The code of a client error a library raised with a bare status (body-parser's, mostly). */
const CODE_OF_CLIENT_STATUS: Partial<Record<number, ErrorCode>> = {
  400: "VALIDATION_FAILED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

/** The last middleware: every error leaves in the standard format; unknown ones as a bare 500. */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const mapped =
      error instanceof Error ? (fromBodyParser(error as BodyParserError & Error) ?? fromRouter(error)) : null;
    const known = mapped ?? (error instanceof DomainError ? error : null);
    if (known && !res.headersSent) res.setHeader(ERROR_CODE_HEADER, known.code);
    if (known instanceof HttpErrorWithBody) {
      res.set(known.headers);
      res.status(statusOf(known.code)).json({ ...errorBody(statusOf(known.code), known.message), ...known.extra });
      return;
    }
    if (known) {
      const status = statusOf(known.code);
      // The server's own failing (a library it cannot load): its operator needs to read why.
      if (status >= 500) logger.error(known.message, { code: known.code, method: req.method, path: req.path });
      sendError(res, status, known.message, known.details);
      return;
    }
    const clientStatus = (error as BodyParserError | null)?.status;
    if (typeof clientStatus === "number" && clientStatus >= 400 && clientStatus < 500) {
      const code = (error as { code?: unknown }).code;
      // zlib's Z_* and brotli's ERR__* codes: the bytes are not what the Content-Encoding says.
      if (typeof code === "string" && (code.startsWith("Z_") || code.startsWith("ERR__"))) {
        res.setHeader(ERROR_CODE_HEADER, "VALIDATION_FAILED");
        sendError(res, 400, "Request body cannot be decompressed as its Content-Encoding says", [
          { path: "content-encoding", message: (error as Error).message },
        ]);
        return;
      }
      const named = CODE_OF_CLIENT_STATUS[clientStatus];
      if (named) res.setHeader(ERROR_CODE_HEADER, named);
      sendError(res, clientStatus, STATUS_CODES[clientStatus] ?? "Bad request");
      return;
    }
    logger.error("Unhandled error in inventory API", { err: error, method: req.method, path: req.path });
    if (res.headersSent) return;
    sendError(res, 500, "Internal server error");
  };
}
