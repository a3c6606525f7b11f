import type { ErrorCode } from "./error-codes.js";

/** One problem with one field of a request, rendered in an error body's `details`. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * Base of every user-facing error. `code` is stable and machine-readable; the HTTP
 * adapter maps codes to statuses in one table, so the domain never mentions HTTP.
 */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  /** Optional per-field problems, rendered as `details` by the HTTP adapter. */
  readonly details?: ErrorDetail[];

  constructor(message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = new.target.name;
    if (details) this.details = details;
  }
}
