import type { Knex } from "knex";
import type { Membership } from "../../domain/inventory/household.js";
import { AUTOMATION_ACCOUNTS_DOMAIN, type InstallationRole, type User } from "../../domain/inventory/user.js";
import type { AccountPage, Anonymisation, UserRepository } from "../../ports/user-repository.js";
import { type Columns, fromColumns, isUniqueViolation, toColumns } from "./knex-rows.js";

type UserRow = Columns<User>;

const toUser = (row: UserRow): User => fromColumns(row, ["deletedAt", "createdAt", "updatedAt"]);

/**
 * Key of the advisory lock first registrations take turns under (any constant unique to this
 * purpose; the lock is held only for the registration's transaction).
 */
const FIRST_ADMIN_LOCK = 4_826_113;

/** Active people's accounts: not deleted, not an automation's actor account. */
function people(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.whereNull("deleted_at").whereNot("email", "like", `%@${AUTOMATION_ACCOUNTS_DOMAIN}`);
}

export class KnexUserRepository implements UserRepository {
  constructor(private readonly knex: Knex) {}

  async insert(user: User, options: { adminIfFirst?: boolean } = {}): Promise<boolean> {
    try {
      if (!options.adminIfFirst) {
        await this.knex("users").insert(toColumns(user));
        return true;
      }
      await this.knex.transaction(async (trx) => {
        await trx.raw("SELECT pg_advisory_xact_lock(?)", [FIRST_ADMIN_LOCK]);
        const someone = await people(trx("users")).first("id");
        await trx("users").insert(toColumns({ ...user, role: someone ? user.role : "admin" }));
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

  async listAccounts({ limit, offset }: { limit: number; offset: number }): Promise<AccountPage> {
    const [rows, [count]] = await Promise.all([
      people(this.knex<UserRow>("users"))
        .orderBy([{ column: "created_at" }, { column: "id" }])
        .limit(limit)
        .offset(offset),
      people(this.knex("users")).count<{ count: string | number }[]>({ count: "*" }),
    ]);
    return { users: (rows as UserRow[]).map(toUser), total: Number(count?.count ?? 0) };
  }

  async setRole(id: string, role: InstallationRole, at: Date): Promise<User | null | "last-admin"> {
    return this.knex.transaction(async (trx) => {
      // Lock every active admin first (then the target): two revocations at once queue here, and
      // the second sees the first's result before it counts.
      const admins: { id: string }[] = await trx("users")
        .where({ role: "admin" })
        .whereNull("deleted_at")
        .orderBy("id")
        .forUpdate()
        .select("id");
      const target = await trx<UserRow>("users").where({ id }).whereNull("deleted_at").forUpdate().first();
      if (!target) return null;
      if (role !== "admin" && target.role === "admin" && admins.length <= 1) return "last-admin";
      if (target.role === role) return toUser(target);
      const [row] = await trx<UserRow>("users").where({ id }).update({ role, updated_at: at }).returning("*");
      return toUser(row as UserRow);
    });
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
      // A deleted account's devices get no more pushes, and its settings are of no one.
      await trx("push_subscriptions").where({ user_id: id }).delete();
      await trx("member_reminders").where({ user_id: id }).delete();
      await trx("users").where({ id }).update({
        name: replacement.name,
        email: replacement.email,
        password_hash: replacement.passwordHash,
        role: "member",
        deleted_at: at,
        updated_at: at,
      });
    });
  }
}
