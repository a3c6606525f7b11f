/**
 * Base of every user-facing error. `code` is stable and machine-readable; the HTTP
 * adapter maps codes to statuses in one table, so the domain never mentions HTTP.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** Optional per-field problems, rendered as `details` by the HTTP adapter. */
  readonly details?: { path: string; message: string }[];

  constructor(message: string, details?: { path: string; message: string }[]) {
    super(message);
    this.name = new.target.name;
    if (details) this.details = details;
  }
}
