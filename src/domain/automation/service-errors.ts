import { DomainError } from "../shared/domain-error.js";

/**
 * Why a call to an engine service (notifications, weather, relays, light panels) failed.
 * Automations catch {@link ServiceCallError} and switch on `code`; the message says what
 * to check. Network failures never surface as raw fetch or socket errors. Each code is
 * in the catalogue (domain/shared/error-codes.ts); DomainError's type enforces it.
 */
export type ServiceErrorCode =
  /** The device or API did not answer (connection refused, timeout, DNS). */
  | "SERVICE_UNREACHABLE"
  /** It answered, but refused the credentials (HTTP 401/403, Shelly digest, Nanoleaf token). */
  | "SERVICE_AUTH_FAILED"
  /** It answered with an error for this request (4xx/5xx, an RPC error object). */
  | "SERVICE_REQUEST_FAILED"
  /** It answered something that is not the vendor's documented shape. */
  | "SERVICE_BAD_RESPONSE"
  /** A device or panel name that configuration does not list. */
  | "SERVICE_UNKNOWN_DEVICE"
  /** A value out of range (brightness 150, position -1, an unknown channel name). */
  | "SERVICE_INVALID_ARGUMENT"
  /** The service needs a step first (a Nanoleaf panel without a token must be paired). */
  | "SERVICE_NOT_READY";

/** A failed call to an engine service; `service` is the registry key (`relay`, `weather`, ...). */
export class ServiceCallError extends DomainError {
  readonly code: ServiceErrorCode;

  constructor(
    readonly service: string,
    code: ServiceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message);
    this.code = code;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
