import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Knex } from "knex";

/**
 * The migrations beside this module's build: the TypeScript sources in migrations/ when this
 * file runs from src/ (tsx), the compiled ones in dist/migrations/ when it runs from dist/
 * (`hearth start` on plain Node, which cannot import .ts files).
 */
export const MIGRATIONS_DIR = fileURLToPath(
  new URL(import.meta.url.endsWith(".js") ? "../../migrations/" : "../../../migrations/", import.meta.url),
);

interface MigrationModule {
  /** `report` tells the operator what a migration found and did to existing rows (a repair). */
  up(knex: Knex, report: (message: string) => void): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Loads migrations by importing the files ourselves, so the same TypeScript files run
 * under tsx in development and tests, whatever knex's own loader thinks of `.ts`.
 */
class DirectoryMigrationSource implements Knex.MigrationSource<string> {
  constructor(
    private readonly directory: string,
    private readonly report: (message: string) => void,
  ) {}

  async getMigrations(): Promise<string[]> {
    const files = await readdir(this.directory);
    return files.filter((file) => /^\d+_[\w-]+\.(ts|js)$/.test(file) && !file.endsWith(".d.ts")).sort();
  }

  getMigrationName(migration: string): string {
    return migration.replace(/\.(ts|js)$/, "");
  }

  async getMigration(migration: string): Promise<Knex.Migration> {
    const module = (await import(pathToFileURL(path.join(this.directory, migration)).href)) as MigrationModule;
    return { up: (knex: Knex) => module.up(knex, this.report), down: module.down };
  }
}

/** The names knex records for the migrations in `directory`, in the order they apply. */
export async function migrationNames(directory: string = MIGRATIONS_DIR): Promise<string[]> {
  const source = new DirectoryMigrationSource(directory, () => {});
  return (await source.getMigrations()).map((migration) => source.getMigrationName(migration));
}

/**
 * Applies every pending migration; returns the names applied. `progress` hears how many are
 * pending; `report` what a migration repaired in existing rows (a warning: stderr by default).
 */
export async function migrateToLatest(
  knex: Knex,
  directory: string = MIGRATIONS_DIR,
  progress?: (message: string) => void,
  report: (message: string) => void = (message) => console.warn(message),
): Promise<string[]> {
  const migrationSource = new DirectoryMigrationSource(directory, report);
  if (progress) {
    const [, pending] = (await knex.migrate.list({ migrationSource })) as [unknown[], unknown[]];
    if (pending.length > 0) progress(`Applying ${pending.length} database migration${pending.length === 1 ? "" : "s"}`);
  }
  const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
