import { USAGE_ERROR } from "../adapters/cli/cli.js";
import { openDatabase } from "../adapters/persistence/database.js";
import { KnexUserRepository } from "../adapters/persistence/knex-user-repository.js";
import { migrateToLatest } from "../adapters/persistence/migrator.js";
import { changeInstallationRole } from "../application/inventory/accounts/installation-admins.js";
import { normaliseEmail } from "../domain/inventory/user.js";
import { systemClock } from "../ports/clock.js";
import { ConfigError, loadConfig } from "./config.js";

export interface AdminCliOptions {
  out?: (line: string) => void;
  err?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

const USAGE = "Usage: hearth admin grant <email> | hearth admin revoke <email> | hearth admin list";

/**
 * `hearth admin grant|revoke <email>` and `hearth admin list`: who may run the house, changed by
 * whoever runs the machine, without signing in (the way back in when the only admin's account
 * is gone). Works on DATABASE_URL or the PGlite database in DATA_DIR; on PGlite, stop Hearth
 * first (that database takes one process at a time).
 */
export async function runAdminCommand(args: string[], options: AdminCliOptions = {}): Promise<number> {
  const out = options.out ?? ((line: string) => console.log(line));
  const err = options.err ?? ((line: string) => console.error(line));
  const [action, email, ...rest] = args;
  const wellFormed =
    rest.length === 0 &&
    ((action === "list" && email === undefined) || ((action === "grant" || action === "revoke") && !!email));
  if (!wellFormed) {
    err(`hearth admin: ${USAGE}`);
    return USAGE_ERROR;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(options.env ?? process.env, { inventory: false });
  } catch (error) {
    err(error instanceof ConfigError ? error.message : String(error));
    return 1;
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    migratesAfterOpening: true,
  });
  try {
    await migrateToLatest(database.knex, undefined, undefined, err);
    const users = new KnexUserRepository(database.knex);
    if (action === "list") {
      // An installation has a handful of accounts; a page of 1 000 is all of them in practice.
      const { users: accounts, total } = await users.listAccounts({ limit: 1000, offset: 0 });
      const admins = accounts.filter((account) => account.role === "admin");
      if (admins.length === 0) out(`No admin among ${total} account(s): hearth admin grant <email> makes one.`);
      for (const admin of admins) out(`${admin.email}\t${admin.name}`);
      return 0;
    }
    const account = await users.findByEmail(normaliseEmail(email ?? ""));
    if (!account || account.deletedAt) {
      err(`hearth admin ${action}: no account with the email ${email}`);
      return 1;
    }
    const changed = await changeInstallationRole(
      { users, clock: systemClock },
      account.id,
      action === "grant" ? "admin" : "member",
    );
    out(`${changed.email} is ${changed.role === "admin" ? "an admin" : "no longer an admin"}`);
    return 0;
  } catch (error) {
    err(`hearth admin ${action} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await database.close();
  }
}
