import { ApiError } from "./api.js";
import { formatNumber } from "./format.js";
import { type MessageKey, t } from "./i18n/index.js";

/** Per-screen sentences for statuses or codes that mean something specific there (a refused delete). */
export type ErrorOverrides = Partial<Record<number | string, MessageKey>>;

/** What a form calls the API's fields, where it differs from the usual label (an item's name is "What"). */
export type FieldLabels = Partial<Record<string, MessageKey>>;

const BY_STATUS: Record<number, MessageKey> = {
  0: "error.offline",
  401: "error.401",
  403: "error.403",
  404: "error.404",
  409: "error.409",
  410: "error.410",
  412: "error.itemChanged",
  413: "error.413",
  500: "error.500",
  502: "error.unavailable",
  503: "error.unavailable",
  504: "error.unavailable",
};

/** The API's stable error codes the app has its own sentence for, in every language. */
const BY_CODE: Partial<Record<string, MessageKey>> = {
  NOT_HOUSEHOLD_MEMBER: "error.notMember",
  NOT_HOUSEHOLD_OWNER: "error.notOwner",
  NOT_ENOUGH_LEFT: "error.notEnoughLeft",
  ITEM_USED_UP: "item.isUsedUp",
  ITEM_ARCHIVED: "item.isArchived",
  ITEM_CHANGED: "error.itemChanged",
  FREEZER_NOT_EMPTY: "freezers.freezerNotEmpty",
  COMPARTMENT_NOT_EMPTY: "freezers.compartmentNotEmpty",
  WRONG_PASSWORD: "error.wrongPassword",
  EMAIL_TAKEN: "auth.register.taken",
  QUANTITY_NOT_WHOLE: "error.quantityNotWhole",
  UNIT_MISMATCH: "error.unitMismatch",
  INVALID_ITEM_CATEGORY: "error.invalidCategory",
  CATEGORY_NAME_TAKEN: "error.categoryNameTaken",
  CATEGORY_NOT_FOUND: "error.404",
  IMPORT_NO_SPACE: "error.importNoSpace",
  // Also what an offline tick or add says when the server refuses it on reconnecting.
  SHOPPING_LIST_ENTRY_NOT_FOUND: "shopping.gone",
  SHOPPING_LIST_FULL: "shopping.full",
};

/** The label of each field the API names in `details`, as the forms show it. */
const FIELD_LABELS: Partial<Record<string, MessageKey>> = {
  name: "field.name",
  quantity: "field.quantity",
  notes: "field.notes",
  expiresAt: "field.expiresAt",
  storedAt: "field.storedAt",
  freezerId: "field.freezer",
  compartmentId: "field.compartment",
  unit: "field.unit",
  categoryId: "field.category",
  email: "field.email",
  password: "field.password",
  newPassword: "account.newPassword",
  currentPassword: "account.currentPassword",
  barcode: "field.barcode",
  code: "field.barcode",
};

/** The API's validation sentences (adapters/http/inventory/*-schemas.ts), each as a rule with its number. */
const RULES: [RegExp, MessageKey][] = [
  [/^must be at most (\d+) characters$/, "rule.maxLength"],
  [/^must be at least (\d+) characters$/, "rule.minLength"],
  [/^must be at most (\d+(?:\.\d+)?)$/, "rule.max"],
  [/^must be (-?\d+(?:\.\d+)?) or more$/, "rule.min"],
  [/^must not be empty$/, "rule.empty"],
  [/^must be a valid email address$/, "rule.email"],
  [/^unknown field$/, "rule.unknown"],
  [/check digit/, "rule.checkDigit"],
  [/^may hold only letters, digits/, "rule.barcodeCharacters"],
];

/** One field's problem in the app's language: "How many: at most 1,000,000". */
function describeDetail(detail: { path: string; message: string }, labels: FieldLabels): string {
  const key = detail.path.split(".").pop() ?? "";
  const label = labels[key] ?? FIELD_LABELS[key];
  let rule = t("rule.invalid");
  for (const [pattern, message] of RULES) {
    const match = pattern.exec(detail.message);
    if (match) {
      rule = t(message, { n: match[1] ? formatNumber(Number(match[1])) : "" });
      break;
    }
  }
  return label ? `${t(label)}: ${rule}` : rule;
}

/**
 * Any failure as one sentence a person can act on, in the app's language: by the API's error
 * code where it sends one, else by status; a 400 names each field by its label and says what
 * it needs. The API's English text reaches only English users, and only when nothing better is known.
 */
export function describeError(error: unknown, overrides: ErrorOverrides = {}, labels: FieldLabels = {}): string {
  if (!(error instanceof ApiError)) return t("error.unexpected");
  const override = (error.code ? overrides[error.code] : undefined) ?? overrides[error.status];
  if (override) return t(override);
  const byCode = error.code ? BY_CODE[error.code] : undefined;
  if (byCode) return t(byCode);
  if (error.status === 429) {
    return error.retryAfter ? t("error.429.seconds", { seconds: error.retryAfter }) : t("error.429");
  }
  if (error.status === 400 || error.status === 422) {
    const fields = error.details.map((detail) => describeDetail(detail, labels));
    if (fields.length > 0) return t("error.400.fields", { fields: fields.join("; ") });
    return t("error.400", { message: error.message });
  }
  const key = BY_STATUS[error.status] ?? (error.status >= 500 ? "error.500" : "error.unexpected");
  return t(key);
}
