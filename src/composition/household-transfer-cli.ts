import { createReadStream, createWriteStream } from "node:fs";
import { KnexShoppingListRepository } from "../adapters/persistence/knex-shopping-list-repository.js";
import { SharpPhotoProcessor } from "../adapters/images/sharp-photo-processor.js";
import { rename, rm } from "node:fs/promises";
import { finished } from "node:stream/promises";
import { type HouseholdFileArguments, parseHouseholdFileArguments, USAGE_ERROR } from "../adapters/cli/cli.js";
import { Cuid2IdGenerator } from "../adapters/ids/cuid2-id-generator.js";
import {
  FileShapeError,
  readHouseholdFile,
  writeHouseholdFile,
} from "../adapters/http/inventory/household-file-format.js";
import { openDatabase } from "../adapters/persistence/database.js";
import { KnexHouseholdRepository } from "../adapters/persistence/knex-household-repository.js";
import { KnexHouseholdTransferStore } from "../adapters/persistence/knex-household-transfer-store.js";
import { migrateToLatest } from "../adapters/persistence/migrator.js";
import { ExportHousehold } from "../application/inventory/transfer/export-household.js";
import { HouseholdAccess } from "../application/inventory/household-access.js";
import { ImportHousehold } from "../application/inventory/transfer/import-household.js";
import { ImportInvalidError } from "../domain/inventory/household-transfer.js";
import { systemClock } from "../ports/clock.js";
import { ConfigError, loadConfig } from "./config.js";

export interface HouseholdTransferCliOptions {
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/**
 * `hearth export|import --household <id> [--format json|csv] <file>`: the same export and
 * import as the API, offline, against DATABASE_URL or the PGlite database in DATA_DIR (stop
 * Hearth first when it runs on PGlite: that database takes one process at a time). The
 * household's owner is recorded as the one who imported.
 */
export async function runHouseholdTransfer(
  kind: "export" | "import",
  args: string[],
  options: HouseholdTransferCliOptions = {},
): Promise<number> {
  const out = options.out ?? ((line: string) => console.log(line));
  const err = options.err ?? ((line: string) => console.error(line));
  const parsed = parseHouseholdFileArguments(args);
  if (typeof parsed === "string") {
    err(`hearth ${kind}: ${parsed}. Usage: hearth ${kind} --household <id> [--format json|csv] <file>`);
    return USAGE_ERROR;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, { inventory: false });
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
    const households = new KnexHouseholdRepository(database.knex);
    const household = await households.findById(parsed.householdId);
    if (!household) {
      err(`hearth ${kind}: no household ${parsed.householdId}`);
      return 1;
    }
    const store = new KnexHouseholdTransferStore(database.knex, { chunked: database.kind === "pglite" });
    if (database.kind === "pglite") await store.undoInterruptedImports();
    const access = new HouseholdAccess(households);
    const input = { householdId: household.id, userId: household.ownerId };
    const shoppingList = new KnexShoppingListRepository(database.knex);
    if (kind === "export") {
      return await exportTo(parsed, new ExportHousehold({ transfers: store, shoppingList }, access), input, out);
    }
    return await importFrom(
      parsed,
      new ImportHousehold(
        {
          transfers: store,
          shoppingList,
          ids: new Cuid2IdGenerator(),
          clock: systemClock,
          photos: new SharpPhotoProcessor(),
        },
        access,
      ),
      input,
      out,
      err,
    );
  } catch (error) {
    err(`hearth ${kind} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await database.close();
  }
}

async function exportTo(
  args: HouseholdFileArguments,
  useCase: ExportHousehold,
  input: { householdId: string; userId: string },
  out: (line: string) => void,
): Promise<number> {
  // Written beside the target and renamed at the end, so a failed export leaves no half file.
  const partial = `${args.file}.partial`;
  const stream = createWriteStream(partial);
  try {
    await writeHouseholdFile(await useCase.execute(input), stream, args.format, {
      householdId: input.householdId,
      exportedAt: new Date(),
    });
    stream.end();
    await finished(stream);
    await rename(partial, args.file);
  } catch (error) {
    stream.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  out(`Exported household ${input.householdId} to ${args.file} (${args.format})`);
  return 0;
}

async function importFrom(
  args: HouseholdFileArguments,
  useCase: ImportHousehold,
  input: { householdId: string; userId: string },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  try {
    const summary = await useCase.execute({
      ...input,
      rows: () => readHouseholdFile(createReadStream(args.file), args.format),
    });
    out(
      `Imported ${args.file} into household ${input.householdId}: ${summary.itemsCreated} items, ${summary.freezersCreated} freezers, ${summary.compartmentsCreated} compartments and ${summary.categoriesCreated} categories created; ${summary.itemsUnchanged} items already there; ${summary.barcodesRemembered} barcodes remembered; ${summary.shoppingEntriesAdded} shopping-list entries added`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ImportInvalidError) {
      err(`hearth import: ${error.message}`);
      for (const detail of error.details ?? []) err(`  ${detail.path}: ${detail.message}`);
      return 1;
    }
    if (error instanceof FileShapeError) {
      err(`hearth import: the file cannot be read: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
