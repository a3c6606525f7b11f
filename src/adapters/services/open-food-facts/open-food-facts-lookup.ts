/**
 * Product lookup in Open Food Facts, following its published API v2
 * (https://openfoodfacts.github.io/openfoodfacts-server/api/, "Get a product by barcode"):
 * `GET /api/v2/product/{barcode}?fields=…` with a User-Agent naming the app, as the API asks of
 * every client. A known product answers `{"status": 1, "product": {…}}`; an unknown one
 * `{"status": 0, …}`, usually with HTTP 404.
 *
 * Only GTINs (digits) are asked about: shop-internal and other codes mean nothing there, and
 * need not leave the house. Whatever goes wrong (no answer within the timeout, a refusal, a
 * body larger than the bound, JSON of another shape) is "not known", never an error: a member
 * can always type the name.
 */
import { z } from "zod";
import type { LookedUpProduct } from "../../../domain/inventory/barcode.js";
import type { Logger } from "../../../ports/logger.js";
import type { ProductLookup } from "../../../ports/product-lookup.js";
import { readBounded } from "../../http-client/read-bounded.js";

/** The fields asked for: the name in the product's language, English, German, and a generic name. */
const FIELDS = ["product_name", "product_name_en", "product_name_de", "generic_name"] as const;

const text = z.string().optional().catch(undefined);

const productResponse = z.object({
  status: z.union([z.literal(0), z.literal(1), z.literal("0"), z.literal("1")]),
  product: z
    .object({ product_name: text, product_name_en: text, product_name_de: text, generic_name: text })
    .optional(),
});

/** A product name is item-name material: one line of at most 200 characters. */
const NAME_MAX = 200;

export interface OpenFoodFactsOptions {
  /** PRODUCT_LOOKUP_URL, without a trailing slash, e.g. https://world.openfoodfacts.org. */
  baseUrl: string;
  /** Names the app and its version, e.g. `Hearth/1.2.0 (self-hosted freezer inventory)`. */
  userAgent: string;
  /** Milliseconds until the lookup gives up; default 3000. */
  timeoutMs?: number;
  /** Largest body read; default 256 KiB (one product with these few fields is about 1 KiB). */
  maxBytes?: number;
  logger: Logger;
}

function cleanName(value: string | undefined): string | undefined {
  // Control characters (line breaks in a name typed into the database) become spaces.
  const name = value?.replace(/[\p{Cc}\s]+/gu, " ").trim();
  if (!name) return undefined;
  return [...name].slice(0, NAME_MAX).join("").trim();
}

export class OpenFoodFactsLookup implements ProductLookup {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(private readonly options: OpenFoodFactsOptions) {
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.maxBytes = options.maxBytes ?? 256 * 1024;
  }

  async find(code: string): Promise<LookedUpProduct | null> {
    if (!/^\d{8,14}$/.test(code)) return null;
    const url = `${this.options.baseUrl}/api/v2/product/${code}?fields=${FIELDS.join(",")}`;
    try {
      const response = await fetch(url, {
        headers: { "User-Agent": this.options.userAgent, Accept: "application/json" },
        // Redirects are not followed: the lookup talks to the configured host only.
        redirect: "manual",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // 404 is how the API says "unknown product"; nothing to read or to log.
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel();
        this.options.logger.warn("Product lookup refused the request", { status: response.status });
        return null;
      }
      const body = await readBounded(response, this.maxBytes);
      if (body === undefined) {
        this.options.logger.warn("Product lookup answered more than the bound", { maxBytes: this.maxBytes });
        return null;
      }
      const parsed = productResponse.safeParse(JSON.parse(body));
      if (!parsed.success) {
        this.options.logger.warn("Product lookup answered in an unexpected shape");
        return null;
      }
      if (Number(parsed.data.status) !== 1) return null;
      const product = parsed.data.product;
      const name =
        cleanName(product?.product_name) ??
        cleanName(product?.product_name_en) ??
        cleanName(product?.product_name_de) ??
        cleanName(product?.generic_name);
      return name ? { name } : null;
    } catch (error) {
      this.options.logger.warn("Product lookup failed", {
        error: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  }
}
