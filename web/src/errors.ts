import { ApiError } from "./api.js";
import { type MessageKey, t } from "./i18n/index.js";

/** Per-screen sentences for statuses that mean something specific there (a refused delete). */
export type ErrorOverrides = Partial<Record<number, MessageKey>>;

const BY_STATUS: Record<number, MessageKey> = {
  0: "error.offline",
  401: "error.401",
  403: "error.403",
  404: "error.404",
  409: "error.409",
  410: "error.410",
  413: "error.413",
  500: "error.500",
  502: "error.unavailable",
  503: "error.unavailable",
  504: "error.unavailable",
};

/**
 * Any failure as one sentence a person can act on. A 429 says when to try again; a 400 keeps
 * the API's own field-by-field explanation (it names the field); English users get the API's
 * sentence for conflicts too, since it names the exact reason.
 */
export function describeError(error: unknown, overrides: ErrorOverrides = {}): string {
  if (!(error instanceof ApiError)) return t("error.unexpected");
  const override = overrides[error.status];
  if (override) return t(override);
  if (error.status === 429) {
    return error.retryAfter ? t("error.429.seconds", { seconds: error.retryAfter }) : t("error.429");
  }
  if (error.status === 400 || error.status === 422) {
    const fields = error.details.map((detail) => (detail.path ? `${detail.path} ${detail.message}` : detail.message));
    return fields.length > 0
      ? t("error.400.fields", { fields: fields.join("; ") })
      : t("error.400", { message: error.message });
  }
  const key = BY_STATUS[error.status] ?? (error.status >= 500 ? "error.500" : "error.unexpected");
  return t(key);
}
