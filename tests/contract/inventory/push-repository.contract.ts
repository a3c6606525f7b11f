import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import type { PushSubscriptionRecord } from "../../../src/domain/inventory/push-reminder.js";
import type { HouseholdRepository } from "../../../src/ports/household-repository.js";
import type { PushRepository } from "../../../src/ports/push-repository.js";
import type { UserRepository } from "../../../src/ports/user-repository.js";

export interface PushRepositoryFixture {
  push: PushRepository;
  users: UserRepository;
  households: HouseholdRepository;
  dispose(): Promise<void>;
}

const t0 = new Date("2026-01-01T10:00:00.000Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const CLAIM_MS = 120_000;

export function describePushRepositoryContract(name: string, create: () => Promise<PushRepositoryFixture>): void {
  describe(`push repository contract: ${name}`, () => {
    let repos: PushRepositoryFixture;
    beforeEach(async () => {
      repos = await create();
    });
    afterEach(async () => {
      await repos.dispose();
    });

    async function newUser(): Promise<string> {
      const id = createId();
      await repos.users.insert({
        id,
        email: `${id}@example.com`,
        name: "Alice",
        passwordHash: "scrypt$x",
        role: "member",
        deletedAt: null,
        createdAt: t0,
        updatedAt: t0,
      });
      return id;
    }

    async function newHousehold(ownerId: string): Promise<string> {
      const id = createId();
      await repos.households.create(
        { id, name: "Home", ownerId, timeZone: "UTC", createdAt: t0, updatedAt: t0 },
        { id: createId(), householdId: id, userId: ownerId, role: "OWNER", joinedAt: t0 },
      );
      return id;
    }

    function device(userId: string, n: number, overrides: Partial<PushSubscriptionRecord> = {}) {
      return {
        endpoint: `https://push.example.com/send/${userId}-${n}`,
        userId,
        p256dh: `key-${n}`,
        auth: `auth-${n}`,
        language: "en" as const,
        createdAt: at(n),
        updatedAt: at(n),
        ...overrides,
      };
    }

    it("stores subscriptions per user, oldest first, and removes only the user's own", async () => {
      const alice = await newUser();
      const bob = await newUser();
      await repos.push.saveSubscription(device(alice, 2), 10);
      await repos.push.saveSubscription(device(alice, 1, { language: "de" }), 10);
      await repos.push.saveSubscription(device(bob, 3), 10);
      const list = await repos.push.listSubscriptions(alice);
      expect(list.map((row) => row.endpoint)).to.deep.equal([device(alice, 1).endpoint, device(alice, 2).endpoint]);
      expect(list[0]).to.deep.include({ language: "de", p256dh: "key-1", auth: "auth-1", userId: alice });
      expect(list[0]!.createdAt.toISOString()).to.equal(at(1).toISOString());
      expect(await repos.push.removeSubscription(bob, device(alice, 1).endpoint)).to.equal(false);
      expect(await repos.push.removeSubscription(alice, device(alice, 1).endpoint)).to.equal(true);
      expect(await repos.push.removeSubscription(alice, device(alice, 1).endpoint)).to.equal(false);
      expect((await repos.push.listSubscriptions(alice)).length).to.equal(1);
      expect((await repos.push.listSubscriptions(bob)).length).to.equal(1);
    });

    it("renews an endpoint in place (keys, language, owner) and keeps its creation time", async () => {
      const alice = await newUser();
      const bob = await newUser();
      await repos.push.saveSubscription(device(alice, 1), 10);
      const renewed = await repos.push.saveSubscription(
        device(alice, 1, { userId: bob, p256dh: "new", language: "de", createdAt: at(9), updatedAt: at(9) }),
        10,
      );
      expect(renewed).to.deep.include({ userId: bob, p256dh: "new", language: "de" });
      expect(renewed!.createdAt.toISOString()).to.equal(at(1).toISOString());
      expect(renewed!.updatedAt.toISOString()).to.equal(at(9).toISOString());
      expect(await repos.push.listSubscriptions(alice)).to.deep.equal([]);
      expect((await repos.push.listSubscriptions(bob)).length).to.equal(1);
    });

    it("refuses a subscription past the limit, storing nothing, but renews one within it", async () => {
      const alice = await newUser();
      for (let n = 0; n < 3; n++) expect(await repos.push.saveSubscription(device(alice, n), 3)).to.not.equal(null);
      expect(await repos.push.saveSubscription(device(alice, 3), 3)).to.equal(null);
      expect((await repos.push.listSubscriptions(alice)).length).to.equal(3);
      expect(await repos.push.saveSubscription(device(alice, 0, { p256dh: "renewed" }), 3)).to.not.equal(null);
    });

    it("forgets a gone subscription only while its keys are the ones sent to", async () => {
      const alice = await newUser();
      await repos.push.saveSubscription(device(alice, 1), 10);
      await repos.push.removeGone({ endpoint: device(alice, 1).endpoint, p256dh: "older", auth: "auth-1" });
      expect((await repos.push.listSubscriptions(alice)).length).to.equal(1);
      await repos.push.removeGone(device(alice, 1));
      expect(await repos.push.listSubscriptions(alice)).to.deep.equal([]);
    });

    it("keeps reminder settings per member and household, keeping lastSentOn across saves", async () => {
      const alice = await newUser();
      const home = await newHousehold(alice);
      const other = await newHousehold(alice);
      expect(await repos.push.findReminder(alice, home)).to.equal(null);
      const saved = await repos.push.saveReminder({
        userId: alice,
        householdId: home,
        enabled: true,
        daysAhead: 2,
        timeOfDay: "07:30",
        updatedAt: t0,
      });
      expect(saved).to.deep.include({ enabled: true, daysAhead: 2, timeOfDay: "07:30", lastSentOn: null });
      expect(await repos.push.findReminder(alice, other)).to.equal(null);
      expect(await repos.push.claimReminder(alice, home, "2026-01-01", t0, CLAIM_MS)).to.equal(true);
      await repos.push.markReminderSent(alice, home, "2026-01-01");
      const again = await repos.push.saveReminder({ ...saved, daysAhead: 5, updatedAt: at(1) });
      expect(again).to.deep.include({ daysAhead: 5, lastSentOn: "2026-01-01" });
      expect((await repos.push.findReminder(alice, home))?.lastSentOn).to.equal("2026-01-01");
    });

    it("lists enabled reminders of members with a device only", async () => {
      const alice = await newUser();
      const bob = await newUser();
      const home = await newHousehold(alice);
      await repos.households.addMember({
        id: createId(),
        householdId: home,
        userId: bob,
        role: "MEMBER",
        joinedAt: t0,
      });
      const settings = { householdId: home, enabled: true, daysAhead: 3, timeOfDay: "18:00", updatedAt: t0 };
      await repos.push.saveReminder({ ...settings, userId: alice });
      await repos.push.saveReminder({ ...settings, userId: bob });
      // No device yet: nothing to send to.
      expect(await repos.push.listEnabledReminders()).to.deep.equal([]);
      await repos.push.saveSubscription(device(alice, 1), 10);
      await repos.push.saveSubscription(device(bob, 2), 10);
      expect((await repos.push.listEnabledReminders()).map((row) => row.userId).sort()).to.deep.equal(
        [alice, bob].sort(),
      );
      // Bob leaves: his settings stay, his reminders stop.
      await repos.households.removeMember({ householdId: home, userId: bob });
      expect((await repos.push.listEnabledReminders()).map((row) => row.userId)).to.deep.equal([alice]);
      await repos.push.saveReminder({ ...settings, userId: alice, enabled: false });
      expect(await repos.push.listEnabledReminders()).to.deep.equal([]);
    });

    it("claims a day once, takes over a stale claim, and releases only the day claimed", async () => {
      const alice = await newUser();
      const home = await newHousehold(alice);
      await repos.push.saveReminder({
        userId: alice,
        householdId: home,
        enabled: true,
        daysAhead: 3,
        timeOfDay: "18:00",
        updatedAt: t0,
      });
      expect(await repos.push.claimReminder(alice, home, "2026-01-01", t0, CLAIM_MS)).to.equal(true);
      expect(await repos.push.claimReminder(alice, home, "2026-01-01", at(1), CLAIM_MS)).to.equal(false);
      // A claim older than the lease was left by a crash.
      expect(await repos.push.claimReminder(alice, home, "2026-01-01", at(3), CLAIM_MS)).to.equal(true);
      await repos.push.releaseReminder(alice, home, "2026-01-02");
      expect(await repos.push.claimReminder(alice, home, "2026-01-01", at(4), CLAIM_MS)).to.equal(false);
      await repos.push.releaseReminder(alice, home, "2026-01-01");
      expect(await repos.push.claimReminder(alice, home, "2026-01-01", at(4), CLAIM_MS)).to.equal(true);
      await repos.push.markReminderSent(alice, home, "2026-01-01");
      expect(await repos.push.claimReminder(alice, home, "2026-01-01", at(60), CLAIM_MS)).to.equal(false);
      expect(await repos.push.claimReminder(alice, home, "2026-01-02", at(60), CLAIM_MS)).to.equal(true);
    });

    it("forgets a deleted account's devices and reminders", async () => {
      const alice = await newUser();
      const home = await newHousehold(alice);
      const settings = { householdId: home, enabled: true, daysAhead: 3, timeOfDay: "18:00", updatedAt: t0 };
      await repos.push.saveReminder({ ...settings, userId: alice });
      await repos.push.saveSubscription(device(alice, 1), 10);
      // Ownership blocks deleting an account; the household goes first, as the use case insists.
      await repos.households.delete(home);
      await repos.users.anonymise({
        id: alice,
        replacement: { name: "Deleted", email: `deleted+${alice}@deleted.invalid`, passwordHash: "x" },
        at: at(5),
      });
      expect(await repos.push.listSubscriptions(alice)).to.deep.equal([]);
    });

    it("drops a household's reminders with the household", async () => {
      const alice = await newUser();
      const home = await newHousehold(alice);
      await repos.push.saveReminder({
        userId: alice,
        householdId: home,
        enabled: true,
        daysAhead: 3,
        timeOfDay: "18:00",
        updatedAt: t0,
      });
      await repos.households.delete(home);
      expect(await repos.push.findReminder(alice, home)).to.equal(null);
    });
  });
}
