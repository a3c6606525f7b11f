import type {
  GetMemberReminder,
  UpdateMemberReminder,
} from "../../../application/inventory/push/member-reminder-settings.js";
import type { SubscribeToPush, UnsubscribeFromPush } from "../../../application/inventory/push/push-subscriptions.js";
import { householdParams } from "./household-schemas.js";
import {
  memberReminderResponse,
  publicKeyResponse,
  pushSubscriptionResponse,
  subscribeBody,
  toMemberReminderResponse,
  toPushSubscriptionResponse,
  unsubscribeBody,
  updateMemberReminderBody,
} from "./push-schemas.js";
import { messageResponseSchema } from "./openapi.js";
import { defineRoute, type RouteDefinition } from "./routes.js";

export interface PushUseCases {
  subscribeToPush: SubscribeToPush;
  unsubscribeFromPush: UnsubscribeFromPush;
  getMemberReminder: GetMemberReminder;
  updateMemberReminder: UpdateMemberReminder;
}

export interface PushRouteOptions {
  /** The VAPID public key browsers subscribe with. */
  publicKey: string;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS. */
  allowPrivateEndpoints: boolean;
}

/** Web Push: the server's key, the caller's devices, and the caller's own reminder per household. */
export function pushRoutes(useCases: PushUseCases, options: PushRouteOptions): RouteDefinition[] {
  return [
    defineRoute({
      method: "get",
      path: "/push/public-key",
      summary: "The server's VAPID public key, to subscribe a browser for push reminders with",
      tags: ["Reminders"],
      // The key is public by design: a browser needs it before anything else.
      auth: false,
      status: 200,
      response: publicKeyResponse,
      handler: async () => ({ publicKey: options.publicKey }),
    }),
    defineRoute({
      method: "post",
      path: "/users/me/push-subscriptions",
      summary:
        "Register this device for push reminders: the browser's PushSubscription (an https endpoint of a push service; 409 past 10 devices)",
      tags: ["Reminders"],
      body: subscribeBody(options.allowPrivateEndpoints),
      status: 201,
      response: pushSubscriptionResponse,
      errors: [409],
      handler: async ({ userId, body }) =>
        toPushSubscriptionResponse(
          await useCases.subscribeToPush.execute({
            userId,
            endpoint: body.endpoint,
            p256dh: body.keys.p256dh,
            auth: body.keys.auth,
            language: body.language,
          }),
        ),
    }),
    defineRoute({
      method: "delete",
      path: "/users/me/push-subscriptions",
      summary: "Stop push reminders to a device, named by its endpoint (404 when the account has no such device)",
      tags: ["Reminders"],
      body: unsubscribeBody,
      status: 200,
      response: messageResponseSchema,
      errors: [404],
      handler: async ({ userId, body }) => {
        await useCases.unsubscribeFromPush.execute({ userId, endpoint: body.endpoint });
        return { message: "Push reminders to this device are off" };
      },
    }),
    defineRoute({
      method: "get",
      path: "/households/{hid}/push-reminders",
      summary: "The caller's own push reminder in the household (off with defaults until saved)",
      tags: ["Reminders"],
      params: householdParams,
      access: "member",
      status: 200,
      response: memberReminderResponse,
      handler: async ({ userId, params }) =>
        toMemberReminderResponse(await useCases.getMemberReminder.execute({ userId, householdId: params.hid })),
    }),
    defineRoute({
      method: "put",
      path: "/households/{hid}/push-reminders",
      summary:
        "Change the caller's own push reminder (any member): enabled, days ahead, time of day in the household's time zone",
      tags: ["Reminders"],
      params: householdParams,
      access: "member",
      body: updateMemberReminderBody,
      status: 200,
      response: memberReminderResponse,
      handler: async ({ userId, params, body }) =>
        toMemberReminderResponse(
          await useCases.updateMemberReminder.execute({ userId, householdId: params.hid, ...body }),
        ),
    }),
  ];
}
