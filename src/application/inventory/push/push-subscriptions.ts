import {
  MAX_PUSH_SUBSCRIPTIONS_PER_USER,
  type PushLanguage,
  PushSubscriptionLimitError,
  PushSubscriptionNotFoundError,
  type PushSubscriptionRecord,
} from "../../../domain/inventory/push-reminder.js";
import type { Clock } from "../../../ports/clock.js";
import type { PushRepository } from "../../../ports/push-repository.js";

export interface PushSubscriptionPorts {
  push: PushRepository;
  clock: Clock;
}

export interface SubscribeToPushInput {
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: PushLanguage;
}

/**
 * Registers this device of the signed-in user for push reminders (the browser's
 * PushSubscription), or renews its keys and language. At most
 * {@link MAX_PUSH_SUBSCRIPTIONS_PER_USER} devices per account.
 */
export class SubscribeToPush {
  constructor(private readonly ports: PushSubscriptionPorts) {}

  async execute(input: SubscribeToPushInput): Promise<PushSubscriptionRecord> {
    const now = this.ports.clock.now();
    const saved = await this.ports.push.saveSubscription(
      {
        endpoint: input.endpoint,
        userId: input.userId,
        p256dh: input.p256dh,
        auth: input.auth,
        language: input.language,
        createdAt: now,
        updatedAt: now,
      },
      MAX_PUSH_SUBSCRIPTIONS_PER_USER,
    );
    if (!saved) throw new PushSubscriptionLimitError();
    return saved;
  }
}

/** Removes one of the signed-in user's devices; another account's endpoint is not found. */
export class UnsubscribeFromPush {
  constructor(private readonly ports: Pick<PushSubscriptionPorts, "push">) {}

  async execute(input: { userId: string; endpoint: string }): Promise<void> {
    if (!(await this.ports.push.removeSubscription(input.userId, input.endpoint)))
      throw new PushSubscriptionNotFoundError();
  }
}

/** The signed-in user's devices. */
export class ListPushSubscriptions {
  constructor(private readonly ports: Pick<PushSubscriptionPorts, "push">) {}

  execute(input: { userId: string }): Promise<PushSubscriptionRecord[]> {
    return this.ports.push.listSubscriptions(input.userId);
  }
}
