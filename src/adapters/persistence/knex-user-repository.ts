import type { Knex } from "knex";
import type { Membership } from "../../domain/inventory/household.js";
import type { User } from "../../domain/inventory/user.js";
import type { UserRepository } from "../../ports/user-repository.js";
import { isUniqueViolation, toDate, toDateOrNull } from "./knex-rows.js";

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    deletedAt: toDateOrNull(row.deleted_at),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export class KnexUserRepository implements UserRepository {
  constructor(private readonly knex: Knex) {}

  async insert(user: User): Promise<boolean> {
    try {
      await this.knex("users").insert({
        id: user.id,
        email: user.email,
        password_hash: user.passwordHash,
        name: user.name,
        deleted_at: user.deletedAt,
        created_at: user.createdAt,
        updated_at: user.updatedAt,
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findById(id: string): Promise<User | null> {
    const row = await this.knex<UserRow>("users").where({ id }).first();
    return row ? toUser(row) : null;
  }

  async findByIds(ids: string[]): Promise<User[]> {
    if (ids.length === 0) return [];
    const rows = await this.knex<UserRow>("users").whereIn("id", [...new Set(ids)]);
    return rows.map(toUser);
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.knex<UserRow>("users").where({ email }).first();
    return row ? toUser(row) : null;
  }

  async updateName(id: string, name: string, at: Date): Promise<User | null> {
    const [row] = await this.knex<UserRow>("users").where({ id }).update({ name, updated_at: at }).returning("*");
    return row ? toUser(row as UserRow) : null;
  }

  async updateEmail(id: string, email: string, at: Date): Promise<User | null | "taken"> {
    try {
      const [row] = await this.knex<UserRow>("users").where({ id }).update({ email, updated_at: at }).returning("*");
      return row ? toUser(row as UserRow) : null;
    } catch (error) {
      if (isUniqueViolation(error)) return "taken";
      throw error;
    }
  }

  async updatePasswordHash(id: string, passwordHash: string, at: Date): Promise<User | null> {
    const [row] = await this.knex<UserRow>("users")
      .where({ id })
      .update({ password_hash: passwordHash, updated_at: at })
      .returning("*");
    return row ? toUser(row as UserRow) : null;
  }

  async anonymise(
    id: string,
    replacement: { name: string; email: string; passwordHash: string },
    at: Date,
    check?: (memberships: Membership[]) => void,
  ): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const rows = await trx("memberships").where({ user_id: id }).forUpdate().select("*");
      check?.(
        rows.map(
          (row: { id: string; household_id: string; user_id: string; role: Membership["role"]; joined_at: Date }) => ({
            id: row.id,
            householdId: row.household_id,
            userId: row.user_id,
            role: row.role,
            joinedAt: toDate(row.joined_at),
          }),
        ),
      );
      await trx("memberships").where({ user_id: id }).delete();
      await trx("refresh_tokens").where({ user_id: id }).delete();
      await trx("users").where({ id }).update({
        name: replacement.name,
        email: replacement.email,
        password_hash: replacement.passwordHash,
        deleted_at: at,
        updated_at: at,
      });
    });
  }
}
