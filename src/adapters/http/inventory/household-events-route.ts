import type { RequestHandler, Response } from "express";
import { z } from "zod";
import type { HouseholdAccess } from "../../../application/inventory/household-access.js";
import {
  type HouseholdEventSink,
  type HouseholdEventStreams,
  TooManyStreamsError,
} from "../../../application/inventory/household-event-streams.js";
import { currentUserId } from "./authenticate.js";
import { householdParams } from "./household-schemas.js";
import { HttpError } from "./http-errors.js";
import { BEARER_AUTH, errorResponses, type OpenAPIRegistry } from "./openapi.js";

export const HOUSEHOLD_EVENTS_PATH = "/households/{hid}/events";

/**
 * Unsent bytes a stream may hold before it is dropped. A client that stops reading (a phone
 * put away with the app open, or one that never reads on purpose) would otherwise make the
 * process keep every event of the household for it; dropped, its EventSource reconnects with
 * `Last-Event-ID` and is replayed what it missed, or told to reload.
 */
export const HOUSEHOLD_STREAM_MAX_BUFFERED_BYTES = 1024 * 1024;

/** Writes unless the reader has fallen too far behind, in which case the stream is dropped. */
function send(res: Response, text: string): void {
  if (res.writableEnded || res.destroyed) return;
  if (res.writableLength > HOUSEHOLD_STREAM_MAX_BUFFERED_BYTES) {
    res.destroy();
    return;
  }
  res.write(text);
}

/** One Server-Sent Events message; `data` is JSON on one line, so no line of it can end the message. */
function message(res: Response, fields: { id?: string; event: string; data: unknown }): void {
  const lines = [];
  if (fields.id !== undefined) lines.push(`id: ${fields.id}`);
  lines.push(`event: ${fields.event}`, `data: ${JSON.stringify(fields.data)}`);
  send(res, `${lines.join("\n")}\n\n`);
}

function sseSink(res: Response, householdId: string): HouseholdEventSink {
  return {
    event: (cursor, event) => message(res, { id: cursor, event: event.type, data: event }),
    reset: (cursor) => message(res, { id: cursor, event: "reset", data: { householdId } }),
    ping: () => send(res, ": ping\n\n"),
    membershipEnded: () => message(res, { event: "membership.ended", data: { householdId } }),
  };
}

/**
 * GET /households/:hid/events: the household's inventory events as Server-Sent Events, for
 * members. Runs after authentication (401) and the path-id check (400); the membership check
 * here answers 403 like every household route.
 */
export function householdEventsHandler(streams: HouseholdEventStreams, access: HouseholdAccess): RequestHandler {
  return async (req, res, next) => {
    const userId = currentUserId(res);
    const householdId = String(req.params.hid);
    try {
      await access.requireMember(householdId, userId);
    } catch (error) {
      next(error);
      return;
    }
    const header = req.headers["last-event-id"];
    const lastEventId = typeof header === "string" && header.trim() !== "" ? header.trim() : undefined;
    res.status(200);
    res.set({
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform keeps proxies (and any compression middleware) from buffering the stream.
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    // HEAD gets the stream's headers and no stream: one opened for it would never write a
    // byte (a HEAD response has no body), keep the answer from being sent, and hold one of
    // the user's stream slots until the client gave up.
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    let stream: { close(): void } | null = null;
    let gone = false;
    res.on("close", () => {
      gone = true;
      stream?.close();
    });
    try {
      // The per-user limit is checked before anything is written, so a refusal is still a JSON 429.
      stream = await streams.open({
        userId,
        householdId,
        lastEventId,
        sink: sseSink(res, householdId),
        onClose: () => {
          if (!res.writableEnded) res.end();
        },
      });
      if (gone) stream.close();
      else res.write(": connected\n\n");
    } catch (error) {
      if (error instanceof TooManyStreamsError) {
        res.set("Retry-After", String(error.retryAfterSeconds));
        res.removeHeader("Content-Type");
        res.removeHeader("Cache-Control");
        res.removeHeader("X-Accel-Buffering");
        next(new HttpError("TOO_MANY_EVENT_STREAMS", error.message));
        return;
      }
      next(error);
    }
  };
}

/** Documents the stream in the OpenAPI document. */
export function registerHouseholdEventsOpenApi(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: HOUSEHOLD_EVENTS_PATH,
    summary: "Stream the household's inventory events live (member), as Server-Sent Events",
    description:
      "Each message: `id: <cursor>`, `event: <event type, e.g. item.created>`, `data: <the event as JSON: " +
      "{id, type, householdId, occurredAt, actor, data}>`. Send the last cursor seen in `Last-Event-ID` to " +
      "resume: the events missed since are replayed first; when the cursor is too old (pruned, or more than " +
      "1000 missed) an `event: reset` message (with a new `id:`) tells the client to reload. A comment " +
      "`: ping` every 15 s keeps proxies from closing the connection. When the member's membership ends " +
      "(removed, left, household deleted) an `event: membership.ended` message is sent and the stream " +
      "closes. At most 10 streams per user and process; more answer 429 with Retry-After. Events written " +
      "by any Hearth process sharing the database arrive within INVENTORY_EVENTS_POLL_MS.",
    tags: ["Households"],
    security: [{ [BEARER_AUTH]: [] }],
    request: {
      params: householdParams,
      headers: z.object({
        "last-event-id": z.string().optional().openapi({ description: "The last cursor the client received" }),
      }),
    },
    responses: {
      200: {
        description: "The event stream",
        content: { "text/event-stream": { schema: { type: "string" } } },
      },
      ...errorResponses([400, 401, 403, 429, 500]),
    },
  });
}
