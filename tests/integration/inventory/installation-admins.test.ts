import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import type { Knex } from "knex";
import { openDatabase } from "../../../src/adapters/persistence/database.js";
import { KnexUserRepository } from "../../../src/adapters/persistence/knex-user-repository.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { runAdminCommand } from "../../../src/composition/admin-cli.js";
import type { User } from "../../../src/domain/inventory/user.js";
import { down as dropRoles, up as addRoles } from "../../../migrations/20261126150000_installation_admins.js";

const t0 = Date.UTC(2026, 0, 1);

function account(email: string, minutes: number, overrides: Partial<User> = {}): User {
  const at = new Date(t0 + minutes * 60_000);
  return {
    id: createId(),
    email,
    name: email.split("@")[0] ?? email,
    passwordHash: "x",
    role: "member",
    deletedAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe("installation admins", () => {
  describe("the migration", () => {
    let knex: Knex;
    let close: () => Promise<void>;

    before(async function () {
      this.timeout(60_000);
      const database = await openDatabase({ dataDir: ":memory:" });
      knex = database.knex;
      close = () => database.close();
      await migrateToLatest(knex);
    });
    after(async () => close?.());

    it("makes the earliest active person the admin of an installation that already has accounts", async () => {
      await dropRoles(knex);
      const rows = [
        account("gone@deleted.invalid", 0, { deletedAt: new Date(t0) }),
        account("door@automations.invalid", 1),
        account("later@example.com", 3),
        account("first@example.com", 2),
      ];
      for (const { role: _role, passwordHash, deletedAt, createdAt, updatedAt, ...rest } of rows) {
        await knex("users").insert({
          ...rest,
          password_hash: passwordHash,
          deleted_at: deletedAt,
          created_at: createdAt,
          updated_at: updatedAt,
        });
      }
      await addRoles(knex);
      const roles = await knex("users").orderBy("email").select("email", "role");
      expect(roles).to.deep.equal([
        { email: "door@automations.invalid", role: "member" },
        { email: "first@example.com", role: "admin" },
        { email: "gone@deleted.invalid", role: "member" },
        { email: "later@example.com", role: "member" },
      ]);
    });
  });

  describe("hearth admin", function () {
    this.timeout(120_000);
    let dataDir: string;
    let lines: string[];
    let errors: string[];
    const run = (...args: string[]) =>
      runAdminCommand(args, {
        env: { DATA_DIR: dataDir },
        out: (line) => lines.push(line),
        err: (line) => errors.push(line),
      });

    beforeEach(async () => {
      lines = [];
      errors = [];
      dataDir = await mkdtemp(path.join(tmpdir(), "hearth-admin-"));
      const database = await openDatabase({ dataDir });
      try {
        await migrateToLatest(database.knex);
        const users = new KnexUserRepository(database.knex);
        await users.insert(account("alice@example.com", 0, { role: "admin" }));
        await users.insert(account("bob@example.com", 1));
      } finally {
        await database.close();
      }
    });
    afterEach(async () => rm(dataDir, { recursive: true, force: true }));

    it("grants, lists and revokes by email, case-insensitively", async () => {
      expect(await run("grant", "Bob@Example.com")).to.equal(0);
      expect(lines.pop()).to.equal("bob@example.com is an admin");
      expect(await run("list")).to.equal(0);
      expect(lines).to.deep.equal(["alice@example.com\talice", "bob@example.com\tbob"]);
      lines = [];
      expect(await run("revoke", "alice@example.com")).to.equal(0);
      expect(lines).to.deep.equal(["alice@example.com is no longer an admin"]);
    });

    it("refuses to revoke the only admin and says why", async () => {
      expect(await run("revoke", "alice@example.com")).to.equal(1);
      expect(errors.join("\n")).to.match(/only admin/);
      expect(await run("list")).to.equal(0);
      expect(lines).to.deep.equal(["alice@example.com\talice"]);
    });

    it("fails on an unknown email and on a command line it cannot read, changing nothing", async () => {
      expect(await run("grant", "carol@example.com")).to.equal(1);
      expect(errors.pop()).to.match(/no account with the email carol@example.com/);
      expect(await run("grant")).to.equal(2);
      expect(await run("promote", "bob@example.com")).to.equal(2);
      expect(await run("list", "extra")).to.equal(2);
      expect(errors.pop()).to.match(/Usage: hearth admin grant <email>/);
      await run("list");
      expect(lines).to.deep.equal(["alice@example.com\talice"]);
    });
  });
});
