/**
 * Every machine-readable error code Hearth answers with, on both HTTP surfaces, and what
 * it means. The HTTP adapter maps each code to a status in one table the compiler checks
 * against this list (adapters/http/error-status.ts); docs/error-codes.md is generated
 * from both.
 */
export const ERROR_CODES = Object.freeze({
  // Requests that are malformed or not acceptable.
  VALIDATION_FAILED: "A field, query parameter or path parameter is missing or invalid; `details` names each one.",
  MALFORMED_JSON: "The request body is not valid JSON.",
  PAYLOAD_TOO_LARGE: "The request body is larger than the surface accepts.",
  UNSUPPORTED_MEDIA_TYPE: "The request body's content type or charset is not supported.",
  ROUTE_NOT_FOUND: "No route matches the method and path.",
  RATE_LIMITED: "Too many requests; `Retry-After` says when to try again.",
  TOO_MANY_EVENT_STREAMS:
    "The user already holds the most household event streams allowed; `Retry-After` says when to try again.",

  // Accounts and sessions.
  EMAIL_TAKEN: "An account with this e-mail address already exists.",
  INVALID_CREDENTIALS: "The e-mail address or the password is wrong (deliberately not saying which).",
  INVALID_REFRESH_TOKEN: "The refresh token is unknown, expired, revoked or already used.",
  AUTHENTICATION_REQUIRED: "The request carries no valid access token.",
  USER_OWNS_HOUSEHOLD: "The account owns a household; transfer the ownership before deleting it.",
  WRONG_PASSWORD: "The current password given to change the password is wrong.",
  CSRF_REJECTED: "A cookie session route was called without the web app's header, or from another site's page.",
  ADMIN_REQUIRED: "Only an admin of the installation may do this (the House pages and routes, granting admin).",
  LAST_ADMIN: "The account is the installation's only admin; make another account admin first.",
  ACCOUNT_NOT_FOUND: "No active account has this id.",

  // Households, members and invites.
  NOT_HOUSEHOLD_MEMBER: "The caller is not a member of the household.",
  NOT_HOUSEHOLD_OWNER: "Only the household's owner may do this.",
  MEMBER_NOT_FOUND: "The user is not a member of the household.",
  CANNOT_REMOVE_OWNER: "The owner cannot be removed from the household.",
  OWNER_CANNOT_LEAVE: "The owner cannot leave the household; transfer the ownership first.",
  INVALID_TRANSFER_TARGET: "Ownership can only pass to another member of the household.",
  INVITE_NOT_FOUND: "No invite with this code exists.",
  INVITE_GONE: "The invite has expired, been used or been revoked.",
  ALREADY_MEMBER: "The user is already a member of the household.",

  // Freezers and compartments.
  FREEZER_NOT_FOUND: "The freezer does not exist in this household.",
  COMPARTMENT_NOT_FOUND: "The compartment does not exist in this freezer.",
  FREEZER_NOT_EMPTY: "The freezer still holds items or archived items.",
  COMPARTMENT_NOT_EMPTY: "The compartment still holds items or archived items.",

  // Items.
  ITEM_NOT_FOUND: "The item does not exist in this household.",
  ITEM_ARCHIVED: "The item is archived; restore it before changing it.",
  ITEM_ALREADY_ARCHIVED: "The item is already archived.",
  ITEM_NOT_ARCHIVED: "Only an archived item can be deleted permanently.",
  ITEM_NOT_IN_ARCHIVE: "The item is not archived, so it cannot be restored.",
  INVALID_ITEM_PLACEMENT: "The freezer or compartment does not belong to the household.",
  NOT_ENOUGH_LEFT: "Consuming more units than the item holds; the message says how many are left.",
  ITEM_CHANGED: "The item changed since the version named in `If-Match`; the body's `item` is the current one.",
  ITEM_USED_UP: "The item was used up (quantity 0) and cannot be restored.",
  IMPORT_INVALID: "An import file has invalid rows; `details` names each row and what is wrong.",
  IMPORT_NO_SPACE: "The server's disk has no room left to take in the import file; nothing was written.",
  BARCODE_NOT_FOUND:
    "The household has not remembered this barcode, and product lookup knows nothing about it (or is off).",

  // The shopping list.
  SHOPPING_LIST_ENTRY_NOT_FOUND: "The shopping list entry does not exist in this household.",
  SHOPPING_LIST_FULL: "The shopping list already holds the most entries allowed (500); remove some first.",
  NO_CHECKED_ENTRIES: "Stocking the checked entries of the shopping list, but none is checked.",

  QUANTITY_NOT_WHOLE: "Quantities in portions and bags are whole numbers, for items and shopping-list entries alike.",
  UNIT_MISMATCH: "An amount to take out is in a unit that does not convert to the item's unit (grams of bags).",
  INVALID_ITEM_CATEGORY: "The item's categoryId is not a category of the household.",

  // Categories.
  CATEGORY_NOT_FOUND: "The category does not exist in this household.",
  CATEGORY_NAME_TAKEN: "The household already has a category of that name (ignoring case).",

  // Photos.
  UNSUPPORTED_IMAGE: "A photo is not a JPEG, PNG, WebP or HEIF/AVIF image the server can decode; nothing changed.",
  PHOTO_TOO_LARGE:
    "A photo is larger than PHOTO_MAX_BYTES or has more pixels than the server decodes; nothing changed.",
  PHOTO_NOT_FOUND: "The item has no photo.",
  PHOTO_PROCESSING_UNAVAILABLE:
    "The server's image library (sharp) cannot be loaded on this machine, so photos cannot be stored; nothing changed.",
  PUSH_SUBSCRIPTION_LIMIT: "The account has as many push subscriptions (devices) as it may; remove one first.",
  PUSH_SUBSCRIPTION_NOT_FOUND: "The account has no push subscription with this endpoint.",

  // The automation engine.
  INVALID_TOPIC_FILTER: "An MQTT topic filter is not valid.",
  STATE_VALUE_NOT_FINITE:
    "A state value holds NaN, Infinity or -Infinity, which JSON writes as null; the key was not set.",
  INVALID_CRON_EXPRESSION: "A cron expression is not valid.",
  MANUAL_TRIGGER_FIELD_MISSING: "A manual trigger lacks a field its trigger type needs.",
  TRIGGER_INPUT_NOT_FINITE:
    "A webhook's JSON body or a manual trigger's body holds a number out of JSON's range (1e400 parses as Infinity); `details` names where, and nothing ran.",
  SERVICE_NOT_FOUND: "No service is registered under the key.",
  SERVICE_NOT_AVAILABLE: "An automation required a service that is not registered.",
  SERVICE_ALREADY_REGISTERED: "A service is already registered under the key.",
  SERVICE_CLASS_GIVEN: "A service option holds a class instead of an instance or a factory.",
  AUTOMATION_NOT_REGISTERED: "An automation's engine members were used before the engine registered it.",
  HTTP_REQUEST_FAILED: "An outgoing HTTP request failed after its retries.",
  WEBHOOK_REFUSED:
    "A webhook automation refused the request by throwing WebhookRefusedError; the webhook answers the status the automation chose (any from 400 to 499), with its message and details.",

  // Engine services (notifications, weather, relays, light panels).
  SERVICE_UNREACHABLE: "A service's device or API did not answer (connection refused, timeout, DNS).",
  SERVICE_AUTH_FAILED: "A service's device or API refused the configured credentials.",
  SERVICE_REQUEST_FAILED: "A service's device or API answered the request with an error.",
  SERVICE_BAD_RESPONSE: "A service's device or API answered something other than its documented shape.",
  SERVICE_UNKNOWN_DEVICE: "No device or panel of that name is configured for the service.",
  SERVICE_INVALID_ARGUMENT: "A value given to a service method is out of range or of the wrong type.",
  SERVICE_NOT_READY: "The service needs a step first, such as pairing a Nanoleaf panel.",
} as const satisfies Record<string, string>);

/** A stable, machine-readable error code (see ERROR_CODES for the list). */
export type ErrorCode = keyof typeof ERROR_CODES;
