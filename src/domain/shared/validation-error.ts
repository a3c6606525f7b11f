import { DomainError, type ErrorDetail } from "./domain-error.js";

/**
 * Input that is well-formed but not acceptable (a field, an id in a body); carries per-field
 * details. Shared by both surfaces: the engine's request bodies go through the same checks.
 */
export class ValidationError extends DomainError {
  readonly code = "VALIDATION_FAILED";
  constructor(message: string, details: ErrorDetail[] = []) {
    super(message, details);
  }
}
