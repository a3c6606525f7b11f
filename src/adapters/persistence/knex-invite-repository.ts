import { writeOutboxEvents } from "./knex-inventory-outbox.js";
import type { Knex } from "knex";
import type { Invite } from "../../domain/inventory/invite.js";
import type { InviteAcceptance, InviteAcceptOutcome, InviteRepository } from "../../ports/invite-repository.js";
import {
  affectedRows,
  fromColumns,
  isForeignKeyViolation,
  isUniqueViolation,
  toColumns,
  type Columns,
  writeIntoHousehold,
} from "./knex-rows.js";

/** Rolls the accept transaction back with the reason it could not complete. */
class AcceptRefused extends Error {
  constructor(readonly outcome: "gone" | "already_member") {
    super(outcome);
  }
}

type InviteRow = Columns<Invite>;

const toInvite = (row: InviteRow): Invite => fromColumns(row, ["expiresAt", "usedAt", "createdAt"]);

export class KnexInviteRepository implements InviteRepository {
  constructor(private readonly knex: Knex) {}

  async insert(invite: Invite): Promise<void> {
    await writeIntoHousehold(() => this.knex("invites").insert(toColumns(invite)));
  }

  async findByCode(code: string): Promise<Invite | null> {
    const row = await this.knex<InviteRow>("invites").where({ code }).first();
    return row ? toInvite(row) : null;
  }

  async findById(householdId: string, inviteId: string): Promise<Invite | null> {
    const row = await this.knex<InviteRow>("invites").where({ id: inviteId, household_id: householdId }).first();
    return row ? toInvite(row) : null;
  }

  async listActive(householdId: string, now: Date): Promise<Invite[]> {
    const rows = await this.knex<InviteRow>("invites")
      .where({ household_id: householdId })
      .whereNull("used_at")
      .where("expires_at", ">", now)
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ]);
    return rows.map(toInvite);
  }

  async delete(householdId: string, inviteId: string): Promise<boolean> {
    return affectedRows(await this.knex("invites").where({ id: inviteId, household_id: householdId }).delete()) > 0;
  }

  async accept({ inviteId, membership, at, events }: InviteAcceptance): Promise<InviteAcceptOutcome> {
    try {
      await this.knex.transaction(async (trx) => {
        const used = await trx("invites")
          .where({ id: inviteId })
          .whereNull("used_at")
          .where("expires_at", ">", at)
          .update({ used_at: at, used_by: membership.userId });
        if (used !== 1) throw new AcceptRefused("gone");
        try {
          await trx("memberships").insert({
            id: membership.id,
            household_id: membership.householdId,
            user_id: membership.userId,
            role: membership.role,
            joined_at: membership.joinedAt,
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw new AcceptRefused("already_member");
          if (isForeignKeyViolation(error)) throw new AcceptRefused("gone");
          throw error;
        }
        await writeOutboxEvents(trx, events);
      });
      return "accepted";
    } catch (error) {
      if (error instanceof AcceptRefused) return error.outcome;
      throw error;
    }
  }
}
