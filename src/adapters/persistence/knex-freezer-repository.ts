import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import { writeOutboxEvents } from "./knex-inventory-outbox.js";
import type { Knex } from "knex";
import { FreezerNotFoundError } from "../../domain/inventory/errors.js";
import type { Compartment, Freezer } from "../../domain/inventory/freezer.js";
import type { DeleteOutcome, FreezerRepository } from "../../ports/freezer-repository.js";
import { type Columns, fromColumns, isForeignKeyViolation, toColumns, writeIntoHousehold } from "./knex-rows.js";

export type FreezerRow = Columns<Freezer>;

export type CompartmentRow = Columns<Compartment>;

export const toFreezer = (row: FreezerRow): Freezer => fromColumns(row, ["createdAt", "updatedAt"]);

export const toCompartment = (row: CompartmentRow): Compartment => fromColumns(row, ["createdAt"]);

/** Freezers and compartments; the "still holds items" checks read the items table (freezer_items). */
/** A freezer as its table row; the repository and the import write freezers through it. */
export const freezerRow = (freezer: Freezer): FreezerRow => toColumns(freezer);

/** A compartment as its table row. */
export const compartmentRow = (compartment: Compartment): CompartmentRow => toColumns(compartment);

export class KnexFreezerRepository implements FreezerRepository {
  constructor(private readonly knex: Knex) {}

  async insertFreezer(freezer: Freezer, events?: InventoryEvent[]): Promise<void> {
    await writeIntoHousehold(() =>
      this.knex.transaction(async (trx) => {
        await trx("freezers").insert(freezerRow(freezer));
        await writeOutboxEvents(trx, events);
      }),
    );
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
    try {
      await this.knex.transaction(async (trx) => {
        await trx("compartments").insert(compartmentRow(compartment));
        await writeOutboxEvents(trx, events);
      });
    } catch (error) {
      // The freezer (or its household) was deleted after the use case found it.
      if (isForeignKeyViolation(error)) throw new FreezerNotFoundError();
      throw error;
    }
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
