import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import type { Compartment, Freezer } from "../../../src/domain/inventory/freezer.js";
import type { Household, Membership } from "../../../src/domain/inventory/household.js";
import type { Invite } from "../../../src/domain/inventory/invite.js";
import type { RefreshToken } from "../../../src/domain/inventory/refresh-token.js";
import type { User } from "../../../src/domain/inventory/user.js";
import type { FreezerRepository } from "../../../src/ports/freezer-repository.js";
import type { HouseholdRepository } from "../../../src/ports/household-repository.js";
import type { InviteRepository } from "../../../src/ports/invite-repository.js";
import type { RefreshTokenRepository } from "../../../src/ports/refresh-token-repository.js";
import type { UserRepository } from "../../../src/ports/user-repository.js";

/** One adapter family under test, fresh for every test. */
export interface AccountRepositoriesFixture {
  users: UserRepository;
  refreshTokens: RefreshTokenRepository;
  households: HouseholdRepository;
  invites: InviteRepository;
  freezers: FreezerRepository;
  /** Puts an item (as the items area would) into a compartment, so "has items" rules can be checked. */
  storeItem(item: {
    householdId: string;
    freezerId: string;
    compartmentId: string;
    userId: string;
    archived?: boolean;
  }): Promise<void>;
  /** Number of items of a household still stored. */
  countItems(householdId: string): Promise<number>;
  dispose(): Promise<void>;
}

const t0 = new Date("2026-01-01T10:00:00.000Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

function user(overrides: Partial<User> = {}): User {
  const id = createId();
  return {
    id,
    email: `${id}@example.com`,
    name: "Alice",
    passwordHash: "scrypt$x",
    role: "member",
    deletedAt: null,
    createdAt: t0,
    updatedAt: t0,
    ...overrides,
  };
}

function household(ownerId: string, overrides: Partial<Household> = {}): Household {
  return { id: createId(), name: "Home", ownerId, timeZone: "UTC", createdAt: t0, updatedAt: t0, ...overrides };
}

function membership(householdId: string, userId: string, role: Membership["role"], joinedAt = t0): Membership {
  return { id: createId(), householdId, userId, role, joinedAt };
}

/** Runs the shared repository contract against one adapter family. */
export function describeAccountRepositoriesContract(
  name: string,
  create: () => Promise<AccountRepositoriesFixture>,
): void {
  describe(`account repositories contract: ${name}`, () => {
    let repos: AccountRepositoriesFixture;
    beforeEach(async () => {
      repos = await create();
    });
    afterEach(async () => {
      await repos.dispose();
    });

    async function seedHousehold(): Promise<{ owner: User; household: Household }> {
      const owner = user();
      await repos.users.insert(owner);
      const home = household(owner.id);
      await repos.households.create(home, membership(home.id, owner.id, "OWNER"));
      return { owner, household: home };
    }

    async function seedFreezer(householdId: string): Promise<{ freezer: Freezer; compartment: Compartment }> {
      const freezer: Freezer = {
        id: createId(),
        householdId,
        name: "Chest",
        description: null,
        position: 0,
        createdAt: t0,
        updatedAt: t0,
      };
      await repos.freezers.insertFreezer(freezer);
      const compartment: Compartment = {
        id: createId(),
        freezerId: freezer.id,
        name: "Top",
        position: 0,
        createdAt: t0,
      };
      await repos.freezers.insertCompartment(compartment);
      return { freezer, compartment };
    }

    describe("users", () => {
      it("stores, finds by id, ids and email, and refuses a taken email", async () => {
        const alice = user({ email: "alice@example.com" });
        expect(await repos.users.insert(alice)).to.equal(true);
        expect(await repos.users.insert(user({ email: "alice@example.com" }))).to.equal(false);
        expect(await repos.users.findById(alice.id)).to.deep.equal(alice);
        expect(await repos.users.findByEmail("alice@example.com")).to.deep.equal(alice);
        expect(await repos.users.findByEmail("bob@example.com")).to.equal(null);
        expect(await repos.users.findById(createId())).to.equal(null);
        const bob = user();
        await repos.users.insert(bob);
        const found = await repos.users.findByIds([alice.id, bob.id, alice.id, createId()]);
        expect(found.map((u) => u.id).sort()).to.deep.equal([alice.id, bob.id].sort());
        expect(await repos.users.findByIds([])).to.deep.equal([]);
      });

      it("renames", async () => {
        const alice = user();
        await repos.users.insert(alice);
        const renamed = await repos.users.updateName(alice.id, "Alicia", at(1));
        expect(renamed).to.include({ name: "Alicia" });
        expect(renamed?.updatedAt.toISOString()).to.equal(at(1).toISOString());
        expect(await repos.users.updateName(createId(), "x", at(1))).to.equal(null);
      });

      it("anonymises and drops memberships and refresh tokens", async () => {
        const { household: home } = await seedHousehold();
        const bob = user();
        await repos.users.insert(bob);
        await repos.households.addMember(membership(home.id, bob.id, "MEMBER", at(1)));
        await repos.refreshTokens.insert(token(bob.id));
        await repos.users.anonymise({
          id: bob.id,
          replacement: { name: "Deleted user", email: `deleted+${bob.id}@deleted.invalid`, passwordHash: "!" },
          at: at(2),
        });
        const stored = await repos.users.findById(bob.id);
        expect(stored).to.include({
          name: "Deleted user",
          email: `deleted+${bob.id}@deleted.invalid`,
          passwordHash: "!",
        });
        expect(stored?.deletedAt?.toISOString()).to.equal(at(2).toISOString());
        expect(await repos.households.findMembership(home.id, bob.id)).to.equal(null);
        expect(await repos.refreshTokens.findByHash(`hash-${bob.id}`)).to.equal(null);
      });
    });

    describe("installation roles", () => {
      it("makes the first person's account admin, and nobody after, automation actors not counting", async () => {
        const robot = user({ email: "door-alarm@automations.invalid" });
        await repos.users.insert(robot);
        const first = user({ createdAt: at(1) });
        const second = user({ createdAt: at(2) });
        expect(await repos.users.insert(first, { adminIfFirst: true })).to.equal(true);
        expect(await repos.users.insert(second, { adminIfFirst: true })).to.equal(true);
        expect((await repos.users.findById(robot.id))?.role).to.equal("member");
        expect((await repos.users.findById(first.id))?.role).to.equal("admin");
        expect((await repos.users.findById(second.id))?.role).to.equal("member");
        expect(await repos.users.insert(user({ email: first.email }), { adminIfFirst: true })).to.equal(false);
      });

      it("gives exactly one of two first registrations at once the admin role", async () => {
        const a = user();
        const b = user();
        await Promise.all([
          repos.users.insert(a, { adminIfFirst: true }),
          repos.users.insert(b, { adminIfFirst: true }),
        ]);
        const roles = [(await repos.users.findById(a.id))?.role, (await repos.users.findById(b.id))?.role];
        expect(roles.sort()).to.deep.equal(["admin", "member"]);
      });

      it("lists active people's accounts oldest first, with a total", async () => {
        const accounts = [user({ createdAt: at(3) }), user({ createdAt: at(1) }), user({ createdAt: at(2) })];
        for (const account of accounts) await repos.users.insert(account);
        await repos.users.insert(user({ email: "x@automations.invalid" }));
        const gone = user({ createdAt: at(0) });
        await repos.users.insert(gone);
        await repos.users.anonymise({
          id: gone.id,
          replacement: { name: "Deleted user", email: `deleted+${gone.id}@deleted.invalid`, passwordHash: "!" },
          at: at(4),
        });
        const page = await repos.users.listAccounts({ limit: 2, offset: 0 });
        expect(page.total).to.equal(3);
        expect(page.users.map((u) => u.id)).to.deep.equal([accounts[1]!.id, accounts[2]!.id]);
        const rest = await repos.users.listAccounts({ limit: 2, offset: 2 });
        expect(rest.users.map((u) => u.id)).to.deep.equal([accounts[0]!.id]);
      });

      it("grants and revokes, but never takes admin from the only admin", async () => {
        const alice = user({ role: "admin" });
        const bob = user();
        await repos.users.insert(alice);
        await repos.users.insert(bob);
        expect(await repos.users.setRole(alice.id, "member", at(1))).to.equal("last-admin");
        expect((await repos.users.findById(alice.id))?.role).to.equal("admin");
        const granted = await repos.users.setRole(bob.id, "admin", at(2));
        expect(granted).to.include({ id: bob.id, role: "admin" });
        expect(await repos.users.setRole(bob.id, "admin", at(3))).to.include({ role: "admin" });
        expect(await repos.users.setRole(alice.id, "member", at(4))).to.include({ role: "member" });
        expect(await repos.users.setRole(bob.id, "member", at(5))).to.equal("last-admin");
        expect(await repos.users.setRole(createId(), "admin", at(6))).to.equal(null);
      });

      it("leaves one admin when two admins revoke each other at once", async () => {
        const alice = user({ role: "admin" });
        const bob = user({ role: "admin" });
        await repos.users.insert(alice);
        await repos.users.insert(bob);
        const results = await Promise.all([
          repos.users.setRole(alice.id, "member", at(1)),
          repos.users.setRole(bob.id, "member", at(1)),
        ]);
        expect(results.filter((result) => result === "last-admin")).to.have.length(1);
        const roles = [(await repos.users.findById(alice.id))?.role, (await repos.users.findById(bob.id))?.role];
        expect(roles.sort()).to.deep.equal(["admin", "member"]);
      });

      it("does not count or change a deleted account, whose role is gone with it", async () => {
        const alice = user({ role: "admin" });
        const bob = user({ role: "admin" });
        await repos.users.insert(alice);
        await repos.users.insert(bob);
        await repos.users.anonymise({
          id: bob.id,
          replacement: { name: "Deleted user", email: `deleted+${bob.id}@deleted.invalid`, passwordHash: "!" },
          at: at(1),
        });
        expect((await repos.users.findById(bob.id))?.role).to.equal("member");
        expect(await repos.users.setRole(bob.id, "admin", at(2))).to.equal(null);
        expect(await repos.users.setRole(alice.id, "member", at(2))).to.equal("last-admin");
      });
    });

    function token(userId: string, overrides: Partial<RefreshToken> = {}): RefreshToken {
      return {
        id: createId(),
        userId,
        familyId: "family-1",
        tokenHash: `hash-${userId}`,
        expiresAt: at(60),
        revokedAt: null,
        rotatedAt: null,
        createdAt: t0,
        ...overrides,
      };
    }

    describe("refresh tokens", () => {
      it("finds by hash and rotates exactly once, storing only the winner's successor", async () => {
        const alice = user();
        await repos.users.insert(alice);
        const stored = token(alice.id);
        await repos.refreshTokens.insert(stored);
        expect(await repos.refreshTokens.findByHash(stored.tokenHash)).to.deep.equal(stored);
        const successors = [
          token(alice.id, { tokenHash: "next-1", createdAt: at(1) }),
          token(alice.id, { tokenHash: "next-2", createdAt: at(1) }),
        ];
        const results = await Promise.all(successors.map((s) => repos.refreshTokens.rotate(stored.id, at(1), s)));
        expect(results.filter(Boolean)).to.have.length(1);
        expect((await repos.refreshTokens.findByHash(stored.tokenHash))?.rotatedAt?.toISOString()).to.equal(
          at(1).toISOString(),
        );
        const winner = results[0] ? 0 : 1;
        expect(await repos.refreshTokens.findByHash(successors[winner]!.tokenHash)).to.deep.equal(successors[winner]);
        expect(await repos.refreshTokens.findByHash(successors[1 - winner]!.tokenHash)).to.equal(null);
      });

      it("revokes a whole family and nothing else", async () => {
        const alice = user();
        await repos.users.insert(alice);
        const first = token(alice.id, { tokenHash: "a", familyId: "f1" });
        const second = token(alice.id, { tokenHash: "b", familyId: "f1" });
        const other = token(alice.id, { tokenHash: "c", familyId: "f2" });
        for (const t of [first, second, other]) await repos.refreshTokens.insert(t);
        await repos.refreshTokens.revokeFamily("f1", at(5));
        expect((await repos.refreshTokens.findByHash("a"))?.revokedAt?.toISOString()).to.equal(at(5).toISOString());
        expect((await repos.refreshTokens.findByHash("b"))?.revokedAt).to.not.equal(null);
        expect((await repos.refreshTokens.findByHash("c"))?.revokedAt).to.equal(null);
        expect(await repos.refreshTokens.rotate(first.id, at(6), token(alice.id, { tokenHash: "d" }))).to.equal(false);
        expect(await repos.refreshTokens.findByHash("d")).to.equal(null);
      });

      it("revokes every token of one user and nobody else's", async () => {
        const alice = user();
        const bob = user();
        await repos.users.insert(alice);
        await repos.users.insert(bob);
        for (const t of [
          token(alice.id, { tokenHash: "a1", familyId: "f1" }),
          token(alice.id, { tokenHash: "a2", familyId: "f2" }),
          token(bob.id, { tokenHash: "b1", familyId: "f3" }),
        ])
          await repos.refreshTokens.insert(t);
        await repos.refreshTokens.revokeAllForUser(alice.id, at(7));
        expect((await repos.refreshTokens.findByHash("a1"))?.revokedAt?.toISOString()).to.equal(at(7).toISOString());
        expect((await repos.refreshTokens.findByHash("a2"))?.revokedAt?.toISOString()).to.equal(at(7).toISOString());
        expect((await repos.refreshTokens.findByHash("b1"))?.revokedAt).to.equal(null);
      });
    });

    describe("households and memberships", () => {
      it("creates with the owner's membership and lists per user, oldest first", async () => {
        const { owner, household: home } = await seedHousehold();
        const second = household(owner.id, { createdAt: at(10), updatedAt: at(10), name: "Cabin" });
        await repos.households.create(second, membership(second.id, owner.id, "OWNER", at(10)));
        expect(await repos.households.findById(home.id)).to.deep.equal(home);
        expect((await repos.households.listForUser(owner.id)).map((h) => h.id)).to.deep.equal([home.id, second.id]);
        expect(await repos.households.listForUser(createId())).to.deep.equal([]);
        expect(await repos.households.findMembership(home.id, owner.id)).to.include({ role: "OWNER" });
        expect(await repos.households.ownsAny(owner.id)).to.equal(true);
        expect(await repos.households.ownsAny(createId())).to.equal(false);
      });

      it("lists members with names by joinedAt and refuses duplicates", async () => {
        const { owner, household: home } = await seedHousehold();
        const bob = user({ name: "Bob" });
        const carol = user({ name: "Carol" });
        await repos.users.insert(bob);
        await repos.users.insert(carol);
        expect(await repos.households.addMember(membership(home.id, carol.id, "MEMBER", at(2)))).to.equal(true);
        expect(await repos.households.addMember(membership(home.id, bob.id, "MEMBER", at(1)))).to.equal(true);
        expect(await repos.households.addMember(membership(home.id, bob.id, "MEMBER", at(3)))).to.equal(false);
        const members = await repos.households.listMembers(home.id);
        expect(members.map((m) => [m.userId, m.name, m.role])).to.deep.equal([
          [owner.id, "Alice", "OWNER"],
          [bob.id, "Bob", "MEMBER"],
          [carol.id, "Carol", "MEMBER"],
        ]);
        expect(members[1]?.email).to.equal(bob.email);
        expect(await repos.households.removeMember({ householdId: home.id, userId: bob.id })).to.equal(true);
        expect(await repos.households.removeMember({ householdId: home.id, userId: bob.id })).to.equal(false);
        expect(await repos.households.findMembership(home.id, bob.id)).to.equal(null);
      });

      it("renames and changes the time zone, one or both", async () => {
        const { household: home } = await seedHousehold();
        expect(await repos.households.findById(home.id)).to.include({ timeZone: "UTC" });
        expect(await repos.households.update(home.id, { name: "Flat" }, at(1))).to.include({
          name: "Flat",
          timeZone: "UTC",
        });
        expect(await repos.households.update(home.id, { timeZone: "Australia/Sydney" }, at(2))).to.include({
          name: "Flat",
          timeZone: "Australia/Sydney",
        });
        expect(await repos.households.update(createId(), { name: "Flat" }, at(1))).to.equal(null);
      });

      it("transfers ownership: new owner OWNER, previous owner MEMBER", async () => {
        const { owner, household: home } = await seedHousehold();
        const bob = user();
        await repos.users.insert(bob);
        await repos.households.addMember(membership(home.id, bob.id, "MEMBER", at(1)));
        const updated = await repos.households.transferOwnership({
          householdId: home.id,
          newOwnerId: bob.id,
          at: at(2),
        });
        expect(updated).to.include({ ownerId: bob.id });
        expect(await repos.households.findMembership(home.id, bob.id)).to.include({ role: "OWNER" });
        expect(await repos.households.findMembership(home.id, owner.id)).to.include({ role: "MEMBER" });
        expect(await repos.households.ownsAny(owner.id)).to.equal(false);
        expect(
          await repos.households.transferOwnership({ householdId: home.id, newOwnerId: createId(), at: at(3) }),
        ).to.equal(null);
        expect(
          await repos.households.transferOwnership({ householdId: createId(), newOwnerId: bob.id, at: at(3) }),
        ).to.equal(null);
      });

      it("deletes a household with everything under it and nothing of others", async () => {
        const { owner, household: home } = await seedHousehold();
        const other = household(owner.id);
        await repos.households.create(other, membership(other.id, owner.id, "OWNER"));
        const { freezer, compartment } = await seedFreezer(home.id);
        const kept = await seedFreezer(other.id);
        await repos.storeItem({
          householdId: home.id,
          freezerId: freezer.id,
          compartmentId: compartment.id,
          userId: owner.id,
        });
        await repos.storeItem({
          householdId: home.id,
          freezerId: freezer.id,
          compartmentId: compartment.id,
          userId: owner.id,
          archived: true,
        });
        await repos.storeItem({
          householdId: other.id,
          freezerId: kept.freezer.id,
          compartmentId: kept.compartment.id,
          userId: owner.id,
        });
        await repos.invites.insert(invite(home.id, owner.id));
        expect(await repos.households.delete(home.id)).to.equal(true);
        expect(await repos.households.findById(home.id)).to.equal(null);
        expect(await repos.households.findMembership(home.id, owner.id)).to.equal(null);
        expect(await repos.freezers.findFreezer(home.id, freezer.id)).to.equal(null);
        expect(await repos.freezers.findCompartment(freezer.id, compartment.id)).to.equal(null);
        expect(await repos.invites.listActive(home.id, t0)).to.deep.equal([]);
        expect(await repos.countItems(home.id)).to.equal(0);
        expect(await repos.countItems(other.id)).to.equal(1);
        expect(await repos.freezers.findFreezer(other.id, kept.freezer.id)).to.not.equal(null);
        expect(await repos.households.delete(home.id)).to.equal(false);
      });
    });

    function invite(householdId: string, createdBy: string, overrides: Partial<Invite> = {}): Invite {
      return {
        id: createId(),
        householdId,
        code: createId() + createId(),
        createdBy,
        expiresAt: at(60),
        usedAt: null,
        usedBy: null,
        createdAt: t0,
        ...overrides,
      };
    }

    describe("invites", () => {
      it("finds by code and id, lists active newest first, deletes within the household only", async () => {
        const { owner, household: home } = await seedHousehold();
        const older = invite(home.id, owner.id);
        const newer = invite(home.id, owner.id, { createdAt: at(1) });
        const expired = invite(home.id, owner.id, { expiresAt: at(-1) });
        const used = invite(home.id, owner.id, { usedAt: t0, usedBy: owner.id });
        for (const i of [older, newer, expired, used]) await repos.invites.insert(i);
        expect(await repos.invites.findByCode(older.code)).to.deep.equal(older);
        expect(await repos.invites.findByCode("nope")).to.equal(null);
        expect(await repos.invites.findById(home.id, newer.id)).to.deep.equal(newer);
        expect(await repos.invites.findById(createId(), newer.id)).to.equal(null);
        expect((await repos.invites.listActive(home.id, t0)).map((i) => i.id)).to.deep.equal([newer.id, older.id]);
        expect(await repos.invites.delete(createId(), older.id)).to.equal(false);
        expect(await repos.invites.delete(home.id, older.id)).to.equal(true);
        expect(await repos.invites.findByCode(older.code)).to.equal(null);
      });

      it("accepts an invite exactly once, never an expired one, and adds the member with it", async () => {
        const { owner, household: home } = await seedHousehold();
        const bob = user();
        await repos.users.insert(bob);
        const live = invite(home.id, owner.id);
        const expired = invite(home.id, owner.id, { expiresAt: at(-1) });
        await repos.invites.insert(live);
        await repos.invites.insert(expired);
        const results = await Promise.all([
          repos.invites.accept({ inviteId: live.id, membership: membership(home.id, bob.id, "MEMBER"), at: t0 }),
          repos.invites.accept({ inviteId: live.id, membership: membership(home.id, bob.id, "MEMBER"), at: t0 }),
        ]);
        expect(results.filter((outcome) => outcome === "accepted")).to.have.length(1);
        expect(await repos.invites.findByCode(live.code)).to.include({ usedBy: bob.id });
        expect(await repos.households.findMembership(home.id, bob.id)).to.include({ role: "MEMBER" });
        expect(
          await repos.invites.accept({
            inviteId: expired.id,
            membership: membership(home.id, user().id, "MEMBER"),
            at: t0,
          }),
        ).to.equal("gone");
      });

      it("leaves an invite unused when its user is already a member", async () => {
        const { owner, household: home } = await seedHousehold();
        const first = invite(home.id, owner.id);
        const second = invite(home.id, owner.id);
        const bob = user();
        await repos.users.insert(bob);
        await repos.invites.insert(first);
        await repos.invites.insert(second);
        expect(
          await repos.invites.accept({ inviteId: first.id, membership: membership(home.id, bob.id, "MEMBER"), at: t0 }),
        ).to.equal("accepted");
        expect(
          await repos.invites.accept({
            inviteId: second.id,
            membership: membership(home.id, bob.id, "MEMBER"),
            at: t0,
          }),
        ).to.equal("already_member");
        expect(await repos.invites.findByCode(second.code)).to.include({ usedAt: null, usedBy: null });
      });
    });

    describe("freezers and compartments", () => {
      it("scopes freezers to their household and lists oldest first", async () => {
        const { household: home } = await seedHousehold();
        const { freezer } = await seedFreezer(home.id);
        const later: Freezer = {
          ...freezer,
          id: createId(),
          name: "Upright",
          description: "garage",
          createdAt: at(1),
          updatedAt: at(1),
        };
        await repos.freezers.insertFreezer(later);
        expect(await repos.freezers.findFreezer(home.id, later.id)).to.deep.equal(later);
        expect(await repos.freezers.findFreezer(createId(), later.id)).to.equal(null);
        expect((await repos.freezers.listFreezers(home.id)).map((f) => f.id)).to.deep.equal([freezer.id, later.id]);
        await repos.freezers.updateFreezer({ ...later, name: "Big", description: null, updatedAt: at(2) });
        expect(await repos.freezers.findFreezer(home.id, later.id)).to.include({ name: "Big", description: null });
      });

      it("persists a freezer's position and lists by position, then oldest first", async () => {
        const { household: home } = await seedHousehold();
        const { freezer: chest } = await seedFreezer(home.id);
        const upright: Freezer = {
          ...chest,
          id: createId(),
          name: "Upright",
          position: 0,
          createdAt: at(1),
          updatedAt: at(1),
        };
        const garage: Freezer = {
          ...chest,
          id: createId(),
          name: "Garage",
          position: 2,
          createdAt: at(-1),
          updatedAt: at(-1),
        };
        for (const f of [upright, garage]) await repos.freezers.insertFreezer(f);
        expect((await repos.freezers.listFreezers(home.id)).map((f) => f.name)).to.deep.equal([
          "Chest",
          "Upright",
          "Garage",
        ]);
        await repos.freezers.updateFreezer({ ...garage, position: 0, updatedAt: at(3) });
        expect(await repos.freezers.findFreezer(home.id, garage.id)).to.include({ position: 0 });
        expect((await repos.freezers.listFreezers(home.id)).map((f) => f.name)).to.deep.equal([
          "Garage",
          "Chest",
          "Upright",
        ]);
      });

      it("orders compartments by position then name (ignoring case) and scopes them to their freezer", async () => {
        const { household: home } = await seedHousehold();
        const { freezer, compartment } = await seedFreezer(home.id);
        const other = await seedFreezer(home.id);
        const make = (name: string, position: number): Compartment => ({
          id: createId(),
          freezerId: freezer.id,
          name,
          position,
          createdAt: t0,
        });
        const drawerB = make("b drawer", 1);
        const drawerA = make("a drawer", 1);
        const chiller = make("Chiller", 1);
        const bottom = make("bottom", 5);
        for (const c of [bottom, chiller, drawerB, drawerA]) await repos.freezers.insertCompartment(c);
        expect((await repos.freezers.listCompartments(freezer.id)).map((c) => c.name)).to.deep.equal([
          "Top",
          "a drawer",
          "b drawer",
          "Chiller",
          "bottom",
        ]);
        expect(await repos.freezers.findCompartment(other.freezer.id, compartment.id)).to.equal(null);
        await repos.freezers.updateCompartment({ ...bottom, position: 0, name: "A bottom" });
        expect((await repos.freezers.listCompartments(freezer.id))[0]?.name).to.equal("A bottom");
      });

      it("refuses to delete a freezer or compartment holding items, archived ones included", async () => {
        const { owner, household: home } = await seedHousehold();
        const { freezer, compartment } = await seedFreezer(home.id);
        const empty: Compartment = { id: createId(), freezerId: freezer.id, name: "Empty", position: 2, createdAt: t0 };
        await repos.freezers.insertCompartment(empty);
        await repos.storeItem({
          householdId: home.id,
          freezerId: freezer.id,
          compartmentId: compartment.id,
          userId: owner.id,
          archived: true,
        });
        expect(await repos.freezers.deleteFreezer(home.id, freezer.id)).to.equal("has-items");
        expect(await repos.freezers.deleteCompartment(freezer.id, compartment.id)).to.equal("has-items");
        expect(await repos.freezers.deleteCompartment(freezer.id, empty.id)).to.equal("deleted");
        expect(await repos.freezers.deleteCompartment(freezer.id, empty.id)).to.equal("not-found");
        expect(await repos.freezers.deleteFreezer(createId(), freezer.id)).to.equal("not-found");
      });

      it("deletes an empty freezer with its compartments", async () => {
        const { household: home } = await seedHousehold();
        const { freezer, compartment } = await seedFreezer(home.id);
        expect(await repos.freezers.deleteFreezer(home.id, freezer.id)).to.equal("deleted");
        expect(await repos.freezers.findFreezer(home.id, freezer.id)).to.equal(null);
        expect(await repos.freezers.findCompartment(freezer.id, compartment.id)).to.equal(null);
      });
    });
  });
}
