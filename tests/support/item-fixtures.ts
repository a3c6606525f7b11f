import type { Knex } from "knex";
import type { FreezerItem, UserSummary } from "../../src/domain/inventory/freezer-item.js";
import type { Membership } from "../../src/domain/inventory/household.js";
import type { MembershipSource } from "../../src/ports/household-repository.js";
import type { ItemPlacementLookup } from "../../src/ports/item-placement.js";
import type { UserSummarySource } from "../../src/ports/item-repository.js";

/**
 * Two households, each with a freezer of two compartments, and two users: Alice owns home,
 * Bob owns away and is a member of home.
 */
export interface ItemWorld {
  users: { alice: UserSummary; bob: UserSummary };
  home: {
    householdId: string;
    freezerId: string;
    compartmentIds: [string, string];
    otherFreezerId: string;
    otherCompartmentId: string;
    /** Two categories of home ("Meat", "Fish"). */
    categoryIds: [string, string];
  };
  away: { householdId: string; freezerId: string; compartmentId: string; categoryId: string };
}

let counter = 0;
function uniqueSuffix(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter}`;
}

export function makeWorld(): ItemWorld {
  const s = uniqueSuffix();
  return {
    users: {
      alice: { id: `ualice${s}`, email: `alice-${s}@example.test`, name: "Alice" },
      bob: { id: `ubob${s}`, email: `bob-${s}@example.test`, name: "Bob" },
    },
    home: {
      householdId: `hhome${s}`,
      freezerId: `fhome${s}`,
      compartmentIds: [`ctop${s}`, `cbottom${s}`],
      otherFreezerId: `fgarage${s}`,
      otherCompartmentId: `cgarage${s}`,
      categoryIds: [`kmeat${s}`, `kfish${s}`],
    },
    away: { householdId: `haway${s}`, freezerId: `faway${s}`, compartmentId: `caway${s}`, categoryId: `kaway${s}` },
  };
}

/** In-memory users and placements for a world, as the memory adapters need them. */
export class MemoryWorld implements UserSummarySource, ItemPlacementLookup, MembershipSource {
  private readonly users = new Map<string, UserSummary>();
  private readonly freezers = new Map<string, string>();
  private readonly compartments = new Map<string, string>();
  private readonly categories = new Map<string, string>();

  constructor(readonly world: ItemWorld) {
    for (const categoryId of world.home.categoryIds) this.categories.set(categoryId, world.home.householdId);
    this.categories.set(world.away.categoryId, world.away.householdId);
    for (const user of Object.values(world.users)) this.users.set(user.id, user);
    this.freezers.set(world.home.freezerId, world.home.householdId);
    this.freezers.set(world.home.otherFreezerId, world.home.householdId);
    this.freezers.set(world.away.freezerId, world.away.householdId);
    this.compartments.set(world.home.compartmentIds[0], world.home.freezerId);
    this.compartments.set(world.home.compartmentIds[1], world.home.freezerId);
    this.compartments.set(world.home.otherCompartmentId, world.home.otherFreezerId);
    this.compartments.set(world.away.compartmentId, world.away.freezerId);
  }

  async findById(userId: string): Promise<UserSummary | undefined> {
    return this.users.get(userId);
  }

  async findMembership(householdId: string, userId: string): Promise<Membership | null> {
    const membership = worldMemberships(this.world).find((m) => m.householdId === householdId && m.userId === userId);
    return membership ?? null;
  }

  async freezerInHousehold(householdId: string, freezerId: string): Promise<boolean> {
    return this.freezers.get(freezerId) === householdId;
  }

  async compartmentInFreezer(freezerId: string, compartmentId: string): Promise<boolean> {
    return this.compartments.get(compartmentId) === freezerId;
  }

  async categoryInHousehold(householdId: string, categoryId: string): Promise<boolean> {
    return this.categories.get(categoryId) === householdId;
  }
}

function worldMemberships(world: ItemWorld): Membership[] {
  const joinedAt = new Date(Date.UTC(2026, 0, 1));
  return [
    {
      id: `m${world.home.householdId}`.slice(0, 30),
      householdId: world.home.householdId,
      userId: world.users.alice.id,
      role: "OWNER",
      joinedAt,
    },
    {
      id: `m${world.away.householdId}`.slice(0, 30),
      householdId: world.away.householdId,
      userId: world.users.bob.id,
      role: "OWNER",
      joinedAt,
    },
    {
      id: `n${world.home.householdId}`.slice(0, 30),
      householdId: world.home.householdId,
      userId: world.users.bob.id,
      role: "MEMBER",
      joinedAt,
    },
  ];
}

/** Writes a world's users, households, memberships, freezers and compartments with plain SQL. */
export async function seedWorld(knex: Knex, world: ItemWorld): Promise<void> {
  const now = new Date();
  await knex("users").insert(
    Object.values(world.users).map((user) => ({
      id: user.id,
      email: user.email,
      name: user.name,
      password_hash: "x",
      created_at: now,
      updated_at: now,
    })),
  );
  // Households and their owners' memberships in one transaction: the database checks at commit
  // that each household has exactly one OWNER membership.
  await knex.transaction(async (trx) => {
    await trx("households").insert([
      { id: world.home.householdId, name: "Home", owner_id: world.users.alice.id, created_at: now, updated_at: now },
      { id: world.away.householdId, name: "Away", owner_id: world.users.bob.id, created_at: now, updated_at: now },
    ]);
    await trx("memberships").insert(
      worldMemberships(world).map((m) => ({
        id: m.id,
        household_id: m.householdId,
        user_id: m.userId,
        role: m.role,
        joined_at: m.joinedAt,
      })),
    );
  });
  await knex("freezers").insert([
    {
      id: world.home.freezerId,
      household_id: world.home.householdId,
      name: "Kitchen",
      created_at: now,
      updated_at: now,
    },
    {
      id: world.home.otherFreezerId,
      household_id: world.home.householdId,
      name: "Garage",
      created_at: now,
      updated_at: now,
    },
    { id: world.away.freezerId, household_id: world.away.householdId, name: "Cabin", created_at: now, updated_at: now },
  ]);
  await knex("compartments").insert([
    { id: world.home.compartmentIds[0], freezer_id: world.home.freezerId, name: "Top", position: 0, created_at: now },
    {
      id: world.home.compartmentIds[1],
      freezer_id: world.home.freezerId,
      name: "Bottom",
      position: 1,
      created_at: now,
    },
    {
      id: world.home.otherCompartmentId,
      freezer_id: world.home.otherFreezerId,
      name: "Drawer",
      position: 0,
      created_at: now,
    },
    { id: world.away.compartmentId, freezer_id: world.away.freezerId, name: "Shelf", position: 0, created_at: now },
  ]);
  const category = (id: string, householdId: string, name: string, position: number) => ({
    id,
    household_id: householdId,
    key: null,
    name,
    position,
    created_at: now,
    updated_at: now,
  });
  await knex("item_categories").insert([
    category(world.home.categoryIds[0], world.home.householdId, "Meat", 0),
    category(world.home.categoryIds[1], world.home.householdId, "Fish", 1),
    category(world.away.categoryId, world.away.householdId, "Meat", 0),
  ]);
}

let itemCounter = 0;

/** An active item in the home household's first compartment; override what a test cares about. */
export function itemIn(world: ItemWorld, overrides: Partial<FreezerItem> = {}): FreezerItem {
  itemCounter += 1;
  const at = new Date(Date.UTC(2026, 0, 1, 12, 0, itemCounter));
  return {
    id: `item${uniqueSuffix()}`,
    householdId: world.home.householdId,
    freezerId: world.home.freezerId,
    compartmentId: world.home.compartmentIds[0],
    name: "Peas",
    quantity: 1,
    unit: "piece",
    categoryId: null,
    notes: null,
    storedAt: at,
    barcode: null,
    expiresAt: null,
    deletedAt: null,
    createdAt: at,
    updatedAt: at,
    createdById: world.users.alice.id,
    updatedById: world.users.alice.id,
    ...overrides,
  };
}
