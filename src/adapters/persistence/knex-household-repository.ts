import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import { writeOutboxEvents } from "./knex-inventory-outbox.js";
import { PREPARED } from "./pg-prepared-statements.js";
import type { Knex } from "knex";
import type { Household, MemberProfile, Membership } from "../../domain/inventory/household.js";
import type { ItemCategory } from "../../domain/inventory/item-category.js";
import { categoryRow } from "./knex-category-repository.js";
import type { HouseholdRepository, MemberRemoval, OwnershipTransfer } from "../../ports/household-repository.js";
import {
  affectedRows,
  type Columns,
  fromColumns,
  isDeadlock,
  isForeignKeyViolation,
  isUniqueViolation,
  retrying,
  toColumns,
} from "./knex-rows.js";

type HouseholdRow = Columns<Household>;

type MembershipRow = Columns<Membership>;

const toHousehold = (row: HouseholdRow): Household => fromColumns(row, ["createdAt", "updatedAt"]);

const toMembership = (row: MembershipRow): Membership => fromColumns(row, ["joinedAt"]);

/** Deletes of a household that members keep writing into meanwhile are tried this often. */
const DELETE_ATTEMPTS = 5;

export class KnexHouseholdRepository implements HouseholdRepository {
  constructor(private readonly knex: Knex) {}

  async create(household: Household, ownerMembership: Membership, categories: ItemCategory[] = []): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx("households").insert(toColumns(household));
      await trx("memberships").insert(toColumns(ownerMembership));
      if (categories.length > 0) await trx("item_categories").insert(categories.map(categoryRow));
    });
  }

  async findById(id: string): Promise<Household | null> {
    const row = await this.knex<HouseholdRow>("households").where({ id }).first();
    return row ? toHousehold(row) : null;
  }

  async listForUser(userId: string): Promise<Household[]> {
    const rows = await this.knex<HouseholdRow>("households as h")
      .join("memberships as m", "m.household_id", "h.id")
      .where("m.user_id", userId)
      .orderBy([
        { column: "h.created_at", order: "asc" },
        { column: "h.id", order: "asc" },
      ])
      .select("h.*");
    return rows.map(toHousehold);
  }

  async update(id: string, changes: { name?: string; timeZone?: string }, at: Date): Promise<Household | null> {
    const [row] = await this.knex("households")
      .where({ id })
      .update({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.timeZone === undefined ? {} : { time_zone: changes.timeZone }),
        updated_at: at,
      })
      .returning("*");
    return row ? toHousehold(row as HouseholdRow) : null;
  }

  delete(id: string, events?: InventoryEvent[]): Promise<boolean> {
    // A member stored an item, freezer or compartment while the household was being deleted
    // (their membership was checked just before): its row is committed by now, and the next
    // attempt deletes it with the rest. The two may also have waited for each other's rows
    // (the item's counters, the compartment it went into), and PostgreSQL aborted this side.
    return retrying(
      DELETE_ATTEMPTS,
      (error) => isForeignKeyViolation(error) || isDeadlock(error),
      () => this.deleteOnce(id, events),
    );
  }

  private deleteOnce(id: string, events?: InventoryEvent[]): Promise<boolean> {
    // Explicit deletes, children first, in one transaction: correct whatever the foreign
    // keys' ON DELETE rules are, and nothing is left half-deleted on failure.
    return this.knex.transaction(async (trx) => {
      const freezerIds = trx("freezers").where({ household_id: id }).select("id");
      await trx("freezer_items").where({ household_id: id }).delete();
      await trx("compartments").whereIn("freezer_id", freezerIds).delete();
      await trx("freezers").where({ household_id: id }).delete();
      await trx("invites").where({ household_id: id }).delete();
      await trx("memberships").where({ household_id: id }).delete();
      const deleted = affectedRows(await trx("households").where({ id }).delete()) === 1;
      if (deleted) await writeOutboxEvents(trx, events);
      return deleted;
    });
  }

  async ownsAny(userId: string): Promise<boolean> {
    const row = await this.knex("households").where({ owner_id: userId }).first("id");
    return row !== undefined;
  }

  async findMembership(householdId: string, userId: string): Promise<Membership | null> {
    const row = await this.knex<MembershipRow>("memberships")
      .where({ household_id: householdId, user_id: userId })
      .first()
      .options(PREPARED);
    return row ? toMembership(row) : null;
  }

  async listMembers(householdId: string): Promise<MemberProfile[]> {
    const rows = await this.knex("memberships as m")
      .join("users as u", "u.id", "m.user_id")
      .where("m.household_id", householdId)
      .orderBy([
        { column: "m.joined_at", order: "asc" },
        { column: "m.id", order: "asc" },
      ])
      .select("m.*", "u.name", "u.email");
    return rows.map((row: MembershipRow & { name: string; email: string }) => ({
      ...toMembership(row),
      name: row.name,
      email: row.email,
    }));
  }

  async addMember(membership: Membership): Promise<boolean> {
    try {
      await this.knex("memberships").insert(toColumns(membership));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async removeMember({ householdId, userId, check, events }: MemberRemoval): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const locked = await lockMembership(trx, householdId, userId);
      if (!locked) return false;
      check?.(locked.household, locked.membership);
      if (!locked.membership) return false;
      const removed = affectedRows(await trx("memberships").where({ id: locked.membership.id }).delete()) > 0;
      if (removed) await writeOutboxEvents(trx, events);
      return removed;
    });
  }

  async transferOwnership(transfer: OwnershipTransfer): Promise<Household | null> {
    const { householdId, newOwnerId, at, check, events } = transfer;
    return this.knex.transaction(async (trx) => {
      const locked = await lockMembership(trx, householdId, newOwnerId);
      if (!locked) return null;
      check?.(locked.household, locked.membership);
      if (!locked.membership) return null;
      // Demote first: the database allows one OWNER membership per household at any moment.
      await trx("memberships").where({ household_id: householdId, role: "OWNER" }).update({ role: "MEMBER" });
      await trx("memberships").where({ id: locked.membership.id }).update({ role: "OWNER" });
      const [row] = await trx("households")
        .where({ id: householdId })
        .update({ owner_id: newOwnerId, updated_at: at })
        .returning("*");
      await writeOutboxEvents(trx, events);
      return toHousehold(row as HouseholdRow);
    });
  }
}

/**
 * Locks the household row, then the user's membership of it, always in this order (every
 * ownership and membership change does), so concurrent changes of one household queue up and
 * each sees the outcome of the one before. Null when the household does not exist.
 */
async function lockMembership(
  trx: Knex.Transaction,
  householdId: string,
  userId: string,
): Promise<{ household: Household; membership: Membership | null } | null> {
  const household = await trx<HouseholdRow>("households").where({ id: householdId }).forUpdate().first();
  if (!household) return null;
  const membership = await trx<MembershipRow>("memberships")
    .where({ household_id: householdId, user_id: userId })
    .forUpdate()
    .first();
  return { household: toHousehold(household), membership: membership ? toMembership(membership) : null };
}
