/**
 * Environment variables of the HomeKit bridge, spread into config.ts's schema so they are
 * validated at start with every other variable. HOMEKIT_ENABLED turns the bridge on; the
 * rest have defaults.
 */
import { z } from "zod";
import { MAX_BRIDGED_ACCESSORIES } from "../adapters/services/homekit/bridge-allocation.js";
import { HOMEKIT_ADVERTISERS, HOMEKIT_DEFAULT_PORT } from "../adapters/services/homekit/homekit-defaults.js";
import { normalizeSetupCode } from "../adapters/services/homekit/homekit-identity.js";

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["true", "false", "1", "0", "yes", "no"], { message: "expected one of true, false, 1, 0, yes, no" }))
  .transform((value) => value === "true" || value === "1" || value === "yes");

const blankToUndefined = (value: string | undefined) =>
  value === undefined || value.trim() === "" ? undefined : value.trim();

export const homeKitEnvShape = {
  HOMEKIT_ENABLED: flag.default(false),
  /** TCP port of the first bridge; more bridges take the ports after it. */
  HOMEKIT_PORT: z.coerce
    .number({ message: "expected a port number" })
    .int("expected a whole number")
    .min(1, "expected 1-65535")
    .max(65535, "expected 1-65535")
    .default(HOMEKIT_DEFAULT_PORT),
  /** `123-45-678`; generated once into DATA_DIR/homekit when unset. */
  HOMEKIT_SETUP_CODE: z
    .string()
    .optional()
    .transform((value, context) => {
      const text = blankToUndefined(value);
      if (text === undefined) return undefined;
      const checked = normalizeSetupCode(text);
      if (!checked.ok) {
        context.addIssue({ code: "custom", message: checked.message });
        return z.NEVER;
      }
      return checked.code;
    }),
  HOMEKIT_BRIDGE_NAME: z
    .string()
    .optional()
    .transform(blankToUndefined)
    .pipe(
      z
        .string()
        .max(64, "expected at most 64 characters")
        .regex(
          /^[\p{L}\p{N}][\p{L}\p{N}' ]*$/u,
          "expected letters, digits, spaces and apostrophes (HomeKit rejects other names)",
        )
        .default("Hearth"),
    ),
  /** Comma-separated interface names or addresses (hap-nodejs `bind`); all when unset. */
  HOMEKIT_BIND: z
    .string()
    .optional()
    .transform((value) => {
      const entries = (value ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
      return entries.length === 0 ? undefined : entries;
    }),
  HOMEKIT_ADVERTISER: z
    .enum(HOMEKIT_ADVERTISERS, { message: `expected one of ${HOMEKIT_ADVERTISERS.join(", ")}` })
    .default("ciao"),
  HOMEKIT_MAX_ACCESSORIES_PER_BRIDGE: z.coerce
    .number({ message: "expected a number" })
    .int("expected a whole number")
    .min(1, "expected 1 or more")
    .max(
      MAX_BRIDGED_ACCESSORIES,
      `expected at most ${MAX_BRIDGED_ACCESSORIES} (HomeKit allows 150 per bridge, the bridge included)`,
    )
    .default(MAX_BRIDGED_ACCESSORIES),
};
