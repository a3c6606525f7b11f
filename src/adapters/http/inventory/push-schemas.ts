import { createECDH } from "node:crypto";
import { z } from "zod";
import "./openapi.js";
import { reminderTimingFields } from "./reminder-schemas.js";
import {
  type MemberReminderSettings,
  PUSH_LANGUAGES,
  type PushSubscriptionRecord,
} from "../../../domain/inventory/push-reminder.js";
import { pushEndpointProblem } from "../../security/push-endpoint-policy.js";

/** Longest endpoint URL accepted; the push services' are a few hundred characters. */
const MAX_ENDPOINT_LENGTH = 2048;

/** base64url of exactly `bytes` bytes, as PushSubscription.toJSON() gives it (padding tolerated). */
function base64urlBytes(bytes: number, what: string) {
  return z
    .string("must be a string")
    .max(200, "is too long")
    .transform((value) => value.replace(/=+$/, ""))
    .refine((value) => /^[A-Za-z0-9_-]*$/.test(value) && Buffer.from(value, "base64url").length === bytes, {
      message: `must be ${what} (${bytes} bytes, base64url)`,
    });
}

/** Any key pair: computeSecret decodes the browser's point, which OpenSSL checks is on the curve. */
const probe = createECDH("prime256v1");
probe.generateKeys();

/** A P-256 point a browser could have made: one that is not would fail every push to it. */
function isCurvePoint(p256dh: string): boolean {
  const point = Buffer.from(p256dh, "base64url");
  if (point[0] !== 4) return false;
  try {
    probe.computeSecret(point);
    return true;
  } catch {
    // computeSecret refuses a point that is not on the curve.
    return false;
  }
}

/** The browser's PushSubscription (its toJSON()), plus the app's language. */
export function subscribeBody(allowPrivateEndpoints: boolean) {
  return z
    .object({
      endpoint: z
        .string("must be a string")
        .max(MAX_ENDPOINT_LENGTH, `must be at most ${MAX_ENDPOINT_LENGTH} characters`)
        .superRefine((endpoint, context) => {
          const problem = pushEndpointProblem(endpoint, allowPrivateEndpoints);
          if (problem) context.addIssue({ code: "custom", message: problem });
        }),
      expirationTime: z.number("must be a number or null").nullable().optional(),
      keys: z
        .object({
          p256dh: base64urlBytes(65, "an uncompressed P-256 public key").refine(isCurvePoint, {
            message: "must be a point on the P-256 curve",
          }),
          auth: base64urlBytes(16, "the authentication secret"),
        })
        .strict(),
      language: z.enum(PUSH_LANGUAGES, "must be en or de").optional().default("en"),
    })
    .strict()
    .openapi("PushSubscriptionRequest", {
      description:
        "The browser's PushSubscription as JSON (endpoint, keys.p256dh, keys.auth; expirationTime is ignored) and the language reminders to this device are written in",
    });
}

export const unsubscribeBody = z
  .object({ endpoint: z.string("must be a string").min(1, "must not be empty").max(MAX_ENDPOINT_LENGTH) })
  .strict()
  .openapi("PushUnsubscribeRequest");

export const pushSubscriptionResponse = z
  .object({
    endpoint: z.string(),
    language: z.enum(PUSH_LANGUAGES),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("PushSubscription");

export const publicKeyResponse = z
  .object({
    publicKey: z.string().openapi({
      description:
        "The server's VAPID public key (uncompressed P-256 point, base64url): PushManager.subscribe's applicationServerKey",
    }),
  })
  .openapi("PushPublicKey");

export function toPushSubscriptionResponse(record: PushSubscriptionRecord): z.input<typeof pushSubscriptionResponse> {
  return {
    endpoint: record.endpoint,
    language: record.language,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

export const updateMemberReminderBody = z
  .object(reminderTimingFields)
  .strict()
  .openapi("UpdateMemberReminderRequest", { description: "Any subset; what is left out keeps its value" });

export const memberReminderResponse = z
  .object({
    householdId: z.string(),
    enabled: z.boolean(),
    daysAhead: z.number().int(),
    timeOfDay: z.string().openapi({ description: "HH:MM in the household's time zone", example: "18:00" }),
    lastSentOn: z.string().nullable().openapi({ description: "Household-local date of the last push, YYYY-MM-DD" }),
    updatedAt: z.string(),
  })
  .openapi("MemberReminder");

export function toMemberReminderResponse(settings: MemberReminderSettings): z.input<typeof memberReminderResponse> {
  return {
    householdId: settings.householdId,
    enabled: settings.enabled,
    daysAhead: settings.daysAhead,
    timeOfDay: settings.timeOfDay,
    lastSentOn: settings.lastSentOn,
    updatedAt: settings.updatedAt.toISOString(),
  };
}
