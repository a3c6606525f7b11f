import { DomainError } from "../shared/domain-error.js";
import { findNonFiniteNumber, type NonFiniteNumber } from "./state-value.js";

/**
 * A firing from outside the engine (a webhook's JSON body, the debug API's manual trigger)
 * holding NaN or ±Infinity: JSON.parse reads a number out of range such as `1e400` as
 * Infinity. Refused before anything runs: the run's context would hold a number its trace
 * (kept as JSON) shows as null, and an automation storing it as state would fail mid-run
 * with STATE_VALUE_NOT_FINITE, a 500 that blames the server for the caller's number.
 */
export class NonFiniteTriggerInputError extends DomainError {
  readonly code = "TRIGGER_INPUT_NOT_FINITE" as const;

  constructor(found: NonFiniteNumber) {
    const number = String(found.number);
    const where = found.path === "" ? "The request body is" : `The request body's ${found.path} is`;
    super(
      `${where} ${number}, a number out of JSON's range (1e400 parses as Infinity); send a finite number or a string. Nothing ran`,
      [{ path: found.path, message: `is ${number} (a number out of range); JSON cannot hold it` }],
    );
  }
}

/** The refusal of `body` when it holds a non-finite number at any depth (naming the first), else null. */
export function nonFiniteTriggerInput(body: unknown): NonFiniteTriggerInputError | null {
  const found = findNonFiniteNumber(body);
  return found === null ? null : new NonFiniteTriggerInputError(found);
}
