import type { Knex } from "knex";
import type { Membership } from "../../domain/inventory/household.js";
import type { User } from "../../domain/inventory/user.js";
import type { Anonymisation, UserRepository } from "../../ports/user-repository.js";
import { type Columns, fromColumns, isUniqueViolation, toColumns } from "./knex-rows.js";

type UserRow = Columns<User>;

const toUser = (row: UserRow): User => fromColumns(row, ["deletedAt", "createdAt", "updatedAt"]);

export class KnexUserRepository implements UserRepository {
  constructor(private readonly knex: Knex) {}

  async insert(user: User): Promise<boolean> {
    try {
      await this.knex("users").insert(toColumns(user));
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

  async anonymise({ id, replacement, at, check }: Anonymisation): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const rows: Columns<Membership>[] = await trx("memberships").where({ user_id: id }).forUpdate().select("*");
      check?.(rows.map((row) => fromColumns(row, ["joinedAt"])));
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
