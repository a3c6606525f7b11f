import type { ErrorCode } from "../../domain/shared/error-codes.js";

/**
 * The HTTP status of every error code, on both surfaces. `satisfies` makes the compiler
 * reject a code without a status and a status for a code that does not exist, so the
 * table cannot drift from the catalogue and nothing adds to it at run time.
 */
export const ERROR_STATUS = Object.freeze({
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  ROUTE_NOT_FOUND: 404,
  RATE_LIMITED: 429,

  EMAIL_TAKEN: 409,
  INVALID_CREDENTIALS: 401,
  INVALID_REFRESH_TOKEN: 401,
  AUTHENTICATION_REQUIRED: 401,
  USER_OWNS_HOUSEHOLD: 409,

  NOT_HOUSEHOLD_MEMBER: 403,
  NOT_HOUSEHOLD_OWNER: 403,
  MEMBER_NOT_FOUND: 404,
  CANNOT_REMOVE_OWNER: 400,
  OWNER_CANNOT_LEAVE: 400,
  INVALID_TRANSFER_TARGET: 400,
  INVITE_NOT_FOUND: 404,
  INVITE_GONE: 410,
  ALREADY_MEMBER: 409,

  FREEZER_NOT_FOUND: 404,
  COMPARTMENT_NOT_FOUND: 404,
  FREEZER_NOT_EMPTY: 409,
  COMPARTMENT_NOT_EMPTY: 409,

  ITEM_NOT_FOUND: 404,
  ITEM_ARCHIVED: 409,
  ITEM_ALREADY_ARCHIVED: 409,
  ITEM_NOT_ARCHIVED: 400,
  ITEM_NOT_IN_ARCHIVE: 409,
  INVALID_ITEM_PLACEMENT: 400,
  NOT_ENOUGH_LEFT: 400,
  ITEM_USED_UP: 409,
  IMPORT_INVALID: 400,

  INVALID_TOPIC_FILTER: 400,
  INVALID_CRON_EXPRESSION: 400,
  MANUAL_TRIGGER_FIELD_MISSING: 400,
  SERVICE_NOT_FOUND: 404,
  SERVICE_NOT_AVAILABLE: 503,
  SERVICE_ALREADY_REGISTERED: 409,
  SERVICE_CLASS_GIVEN: 500,
  AUTOMATION_NOT_REGISTERED: 500,
  HTTP_REQUEST_FAILED: 502,
} as const satisfies Record<ErrorCode, number>);

/** The status of a code; a compile-time total function, so there is no "unknown code" case. */
export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
