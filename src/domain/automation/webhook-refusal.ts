import { DomainError, type ErrorDetail } from "../shared/domain-error.js";

/**
 * Checked instead of `instanceof`: an automation file may import its own copy of the package
 * (the built `hearth` next to the engine running from source), whose class is another one.
 */
const WEBHOOK_REFUSED_BRAND: unique symbol = Symbol.for("hearth.webhookRefused") as never;

/** How a webhook answers a request its automation refused: a 4xx status and the project's error body. */
export interface WebhookRefusal {
  /** 400–499. */
  status: number;
  message: string;
  details?: ErrorDetail[];
}

const isClientErrorStatus = (status: unknown): status is number =>
  typeof status === "number" && Number.isInteger(status) && status >= 400 && status <= 499;

const isErrorDetail = (detail: unknown): detail is ErrorDetail =>
  typeof detail === "object" &&
  detail !== null &&
  typeof (detail as ErrorDetail).path === "string" &&
  typeof (detail as ErrorDetail).message === "string";

/**
 * Thrown from a webhook automation's `execute()` to refuse the request with a client error,
 * instead of the `500` any other exception gives: the webhook answers `status` with the body
 * `{ error, message, details? }`, as the engine's other routes do.
 *
 * Only a run a webhook started (a request to `/webhook/<path>`, or the debug API's manual
 * trigger of type `webhook`) answers this way; such a run counts in the automation's
 * `stats.refused`, not `stats.errors`. Thrown from a run of any other trigger (MQTT, cron,
 * state, ...) it is an ordinary error: the run fails as with any exception.
 *
 * The caller reads `message` and `details` verbatim, so keep secrets out of them.
 *
 * @example
 * ```ts
 * if (typeof body?.away !== "boolean")
 *   throw new WebhookRefusedError(400, "The body must be JSON like {\"away\": true}", {
 *     details: [{ path: "away", message: "expected a boolean" }],
 *   });
 * ```
 */
export class WebhookRefusedError extends DomainError {
  readonly code = "WEBHOOK_REFUSED" as const;
  /** The HTTP status the webhook answers, 400–499. */
  readonly status: number;
  readonly [WEBHOOK_REFUSED_BRAND] = true;

  /**
   * @param status - a client error status, an integer from 400 to 499; a server error is
   *   what any other exception gives, so anything else is a `TypeError`.
   * @param message - what the caller must change, sent to it as the body's `message`.
   * @param options.details - per-field problems, sent as the body's `details`.
   * @param options.cause - the error behind the refusal, for the engine log (never sent).
   */
  constructor(status: number, message: string, options?: { details?: readonly ErrorDetail[]; cause?: unknown }) {
    if (!isClientErrorStatus(status))
      throw new TypeError(`A webhook refusal's status must be an integer from 400 to 499, not ${String(status)}`);
    if (typeof message !== "string") throw new TypeError("A webhook refusal's message must be a string");
    const details = options?.details;
    if (details !== undefined && !(Array.isArray(details) && details.every(isErrorDetail)))
      throw new TypeError("A webhook refusal's details must be an array of { path: string, message: string }");
    super(
      message,
      details?.map((detail) => ({ path: detail.path, message: detail.message })),
    );
    this.status = status;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * The refusal `error` stands for when it is a {@link WebhookRefusedError} of any copy of the
 * package, else null. Read again rather than trusted: only the class's own checks made it.
 */
export function webhookRefusalOf(error: unknown): WebhookRefusal | null {
  if (typeof error !== "object" || error === null) return null;
  const candidate = error as Partial<WebhookRefusedError> & Record<symbol, unknown>;
  if (candidate[WEBHOOK_REFUSED_BRAND] !== true) return null;
  const { status, message, details } = candidate;
  if (!isClientErrorStatus(status) || typeof message !== "string") return null;
  const validDetails = Array.isArray(details) && details.every(isErrorDetail) ? details : undefined;
  return {
    status,
    message,
    ...(validDetails
      ? { details: validDetails.map((detail) => ({ path: detail.path, message: detail.message })) }
      : {}),
  };
}
