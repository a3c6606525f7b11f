import { z } from "zod";
import "./openapi.js";
import type { ReminderSettings } from "../../../domain/inventory/reminder.js";

const timeOfDay = z
  .string("must be a string")
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a local time of day as HH:MM, e.g. 18:00");

/** When a reminder goes out, as both the household's (ntfy) and a member's (Web Push) settings take it. */
export const reminderTimingFields = {
  enabled: z.boolean("must be true or false").optional(),
  daysAhead: z
    .number("must be a number")
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(365, "must be at most 365")
    .optional(),
  timeOfDay: timeOfDay.optional(),
};

// An ntfy topic: letters, digits, - and _ (what ntfy accepts), 1–64 characters.
const channel = z
  .string("must be a string")
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, - or _ (an ntfy topic)")
  .nullable();

export const updateRemindersBody = z
  .object({ ...reminderTimingFields, channel: channel.optional() })
  .strict()
  .openapi("UpdateReminderSettingsRequest", { description: "Any subset; what is left out keeps its value" });

export const remindersResponse = z
  .object({
    householdId: z.string(),
    enabled: z.boolean(),
    daysAhead: z.number().int(),
    timeOfDay: z.string().openapi({ description: "Local time (TZ), HH:MM", example: "18:00" }),
    channel: z.string().nullable().openapi({ description: "ntfy topic; null: the notification service's default" }),
    lastSentOn: z.string().nullable().openapi({ description: "Local date of the last reminder sent, YYYY-MM-DD" }),
    updatedAt: z.string(),
  })
  .openapi("ReminderSettings");

export function toRemindersResponse(settings: ReminderSettings): z.input<typeof remindersResponse> {
  return {
    householdId: settings.householdId,
    enabled: settings.enabled,
    daysAhead: settings.daysAhead,
    timeOfDay: settings.timeOfDay,
    channel: settings.channel,
    lastSentOn: settings.lastSentOn,
    updatedAt: settings.updatedAt.toISOString(),
  };
}
