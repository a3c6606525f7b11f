import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import { writeOutboxEvents } from "./knex-inventory-outbox.js";
import type { Knex } from "knex";
import type { Compartment, Freezer } from "../../domain/inventory/freezer.js";
import type { DeleteOutcome, FreezerRepository } from "../../ports/freezer-repository.js";
import { isForeignKeyViolation, toDate } from "./knex-rows.js";

export interface FreezerRow {
  id: string;
  household_id: string;
  name: string;
  description: string | null;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export interface CompartmentRow {
  id: string;
  freezer_id: string;
  name: string;
  position: number;
  created_at: Date;
}

export function toFreezer(row: FreezerRow): Freezer {
  return {
    id: row.id,
    householdId: row.household_id,
    name: row.name,
    description: row.description,
    position: Number(row.position),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export function toCompartment(row: CompartmentRow): Compartment {
  return {
    id: row.id,
    freezerId: row.freezer_id,
    name: row.name,
    position: Number(row.position),
    createdAt: toDate(row.created_at),
  };
}

/** Freezers and compartments; the "still holds items" checks read the items table (freezer_items). */
/** A freezer as its table row; the repository and the import write freezers through it. */
export function freezerRow(freezer: Freezer) {
  return {
    id: freezer.id,
    household_id: freezer.householdId,
    name: freezer.name,
    description: freezer.description,
    position: freezer.position,
    created_at: freezer.createdAt,
    updated_at: freezer.updatedAt,
  };
}

/** A compartment as its table row. */
export function compartmentRow(compartment: Compartment) {
  return {
    id: compartment.id,
    freezer_id: compartment.freezerId,
    name: compartment.name,
    position: compartment.position,
    created_at: compartment.createdAt,
  };
}

export class KnexFreezerRepository implements FreezerRepository {
  constructor(private readonly knex: Knex) {}

  async insertFreezer(freezer: Freezer, events?: InventoryEvent[]): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx("freezers").insert(freezerRow(freezer));
      await writeOutboxEvents(trx, events);
    });
  }

  async findFreezer(householdId: string, freezerId: string): Promise<Freezer | null> {
    const row = await this.knex<FreezerRow>("freezers").where({ id: freezerId, household_id: householdId }).first();
    return row ? toFreezer(row) : null;
  }

  async listFreezers(householdId: string): Promise<Freezer[]> {
    const rows = await this.knex<FreezerRow>("freezers")
      .where({ household_id: householdId })
      .orderBy([
        { column: "position", order: "asc" },
        { column: "created_at", order: "asc" },
        { column: "id", order: "asc" },
      ]);
    return rows.map(toFreezer);
  }

  async updateFreezer(freezer: Freezer): Promise<void> {
    await this.knex("freezers").where({ id: freezer.id }).update({
      name: freezer.name,
      description: freezer.description,
      position: freezer.position,
      updated_at: freezer.updatedAt,
    });
  }

  async deleteFreezer(householdId: string, freezerId: string, events?: InventoryEvent[]): Promise<DeleteOutcome> {
    try {
      return await this.knex.transaction(async (trx) => {
        const freezer = await trx("freezers")
          .where({ id: freezerId, household_id: householdId })
          .forUpdate()
          .first("id");
        if (!freezer) return "not-found";
        if (await trx("freezer_items").where({ freezer_id: freezerId }).first("id")) return "has-items";
        await trx("compartments").where({ freezer_id: freezerId }).delete();
        await trx("freezers").where({ id: freezerId }).delete();
        await writeOutboxEvents(trx, events);
        return "deleted";
      });
    } catch (error) {
      // An item stored concurrently after the check: the foreign key refuses the delete.
      if (isForeignKeyViolation(error)) return "has-items";
      throw error;
    }
  }

  async insertCompartment(compartment: Compartment, events?: InventoryEvent[]): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx("compartments").insert(compartmentRow(compartment));
      await writeOutboxEvents(trx, events);
    });
  }

  async findCompartment(freezerId: string, compartmentId: string): Promise<Compartment | null> {
    const row = await this.knex<CompartmentRow>("compartments")
      .where({ id: compartmentId, freezer_id: freezerId })
      .first();
    return row ? toCompartment(row) : null;
  }

  async listCompartments(freezerId: string): Promise<Compartment[]> {
    // Names ignoring case, then by code point (COLLATE "C"): the same on every server locale,
    // as the in-memory adapter and as item names sort.
    const rows = await this.knex<CompartmentRow>("compartments")
      .where({ freezer_id: freezerId })
      .orderByRaw(`position ASC, lower(name) COLLATE "C" ASC, name COLLATE "C" ASC, id ASC`);
    return rows.map(toCompartment);
  }

  async updateCompartment(compartment: Compartment): Promise<void> {
    await this.knex("compartments")
      .where({ id: compartment.id })
      .update({ name: compartment.name, position: compartment.position });
  }

  async deleteCompartment(freezerId: string, compartmentId: string, events?: InventoryEvent[]): Promise<DeleteOutcome> {
    try {
      return await this.knex.transaction(async (trx) => {
        const compartment = await trx("compartments")
          .where({ id: compartmentId, freezer_id: freezerId })
          .forUpdate()
          .first("id");
        if (!compartment) return "not-found";
        if (await trx("freezer_items").where({ compartment_id: compartmentId }).first("id")) return "has-items";
        await trx("compartments").where({ id: compartmentId }).delete();
        await writeOutboxEvents(trx, events);
        return "deleted";
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) return "has-items";
      throw error;
    }
  }
}
