import type { MemberReminderSettings, PushSubscriptionRecord } from "../../domain/inventory/push-reminder.js";
import type { PushRepository } from "../../ports/push-repository.js";
import type { MemoryInventoryStore } from "./memory-inventory-store.js";

const reminderKey = (userId: string, householdId: string) => `${userId}\u0000${householdId}`;

/** Push subscriptions and members' push reminders in process memory (memberships from the shared store). */
export class MemoryPushRepository implements PushRepository {
  private readonly subscriptions = new Map<string, PushSubscriptionRecord>();
  private readonly reminders = new Map<string, MemberReminderSettings>();
  private readonly claims = new Map<string, { date: string; at: number }>();

  constructor(private readonly store: MemoryInventoryStore) {}

  async saveSubscription(subscription: PushSubscriptionRecord, limit: number): Promise<PushSubscriptionRecord | null> {
    const others = [...this.subscriptions.values()].filter(
      (row) => row.userId === subscription.userId && row.endpoint !== subscription.endpoint,
    );
    if (others.length >= limit) return null;
    const existing = this.subscriptions.get(subscription.endpoint);
    const row = { ...subscription, createdAt: existing?.createdAt ?? subscription.createdAt };
    this.subscriptions.set(subscription.endpoint, row);
    return { ...row };
  }

  async listSubscriptions(userId: string): Promise<PushSubscriptionRecord[]> {
    return [...this.subscriptions.values()]
      .filter((row) => row.userId === userId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.endpoint < b.endpoint ? -1 : 1))
      .map((row) => ({ ...row }));
  }

  async removeSubscription(userId: string, endpoint: string): Promise<boolean> {
    if (this.subscriptions.get(endpoint)?.userId !== userId) return false;
    return this.subscriptions.delete(endpoint);
  }

  async removeGone(subscription: Pick<PushSubscriptionRecord, "endpoint" | "p256dh" | "auth">): Promise<void> {
    const row = this.subscriptions.get(subscription.endpoint);
    if (row && row.p256dh === subscription.p256dh && row.auth === subscription.auth)
      this.subscriptions.delete(subscription.endpoint);
  }

  async findReminder(userId: string, householdId: string): Promise<MemberReminderSettings | null> {
    const row = this.reminders.get(reminderKey(userId, householdId));
    return row ? { ...row } : null;
  }

  async saveReminder(settings: Omit<MemberReminderSettings, "lastSentOn">): Promise<MemberReminderSettings> {
    if (!this.store.households.has(settings.householdId)) throw new Error("no such household");
    const key = reminderKey(settings.userId, settings.householdId);
    const row = { ...settings, lastSentOn: this.reminders.get(key)?.lastSentOn ?? null };
    this.reminders.set(key, row);
    return { ...row };
  }

  async listEnabledReminders(): Promise<MemberReminderSettings[]> {
    const members = new Set(
      [...this.store.memberships.values()].map((membership) => reminderKey(membership.userId, membership.householdId)),
    );
    const withDevice = new Set([...this.subscriptions.values()].map((row) => row.userId));
    return [...this.reminders.values()]
      .filter(
        (row) => row.enabled && members.has(reminderKey(row.userId, row.householdId)) && withDevice.has(row.userId),
      )
      .sort((a, b) =>
        a.householdId === b.householdId ? (a.userId < b.userId ? -1 : 1) : a.householdId < b.householdId ? -1 : 1,
      )
      .map((row) => ({ ...row }));
  }

  async claimReminder(userId: string, householdId: string, date: string, now: Date, claimMs: number): Promise<boolean> {
    const key = reminderKey(userId, householdId);
    const row = this.reminders.get(key);
    if (!row || row.lastSentOn === date) return false;
    const claim = this.claims.get(key);
    if (claim?.date === date && claim.at >= now.getTime() - claimMs) return false;
    this.claims.set(key, { date, at: now.getTime() });
    return true;
  }

  async markReminderSent(userId: string, householdId: string, date: string): Promise<void> {
    const key = reminderKey(userId, householdId);
    const row = this.reminders.get(key);
    if (row) row.lastSentOn = date;
    this.claims.delete(key);
  }

  async releaseReminder(userId: string, householdId: string, date: string): Promise<void> {
    const key = reminderKey(userId, householdId);
    if (this.claims.get(key)?.date === date) this.claims.delete(key);
  }

  /** What deleting (anonymising) an account drops, as the user repository does in PostgreSQL. */
  deleteUser(userId: string): void {
    for (const [endpoint, row] of this.subscriptions) if (row.userId === userId) this.subscriptions.delete(endpoint);
    for (const [key, row] of this.reminders)
      if (row.userId === userId) {
        this.reminders.delete(key);
        this.claims.delete(key);
      }
  }

  /** Cascade of a deleted household, as the foreign key does in PostgreSQL. */
  deleteHousehold(householdId: string): void {
    for (const [key, row] of this.reminders)
      if (row.householdId === householdId) {
        this.reminders.delete(key);
        this.claims.delete(key);
      }
  }
}
