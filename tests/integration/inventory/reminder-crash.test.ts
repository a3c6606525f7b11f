import path from "node:path";
import { expect } from "chai";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { KnexReminderRepository } from "../../../src/adapters/persistence/knex-reminder-repository.js";
import { REMINDER_CLAIM_MS } from "../../../src/domain/inventory/reminder.js";
import { FakeNtfy } from "../../support/fake-ntfy.js";
import { launch } from "../../support/hearth-processes.js";
import { itemIn, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

const SENDER = path.resolve("tests/integration/fixtures/reminder-sender/send-once.ts");

/**
 * A reminder check killed with SIGKILL after it claimed the day and before it sent: the day's
 * reminder is not lost. The next check, once the claim is older than its lease, sends it once,
 * with the key derived from household and day; later checks send nothing.
 */
describe("expiry reminder: a process killed between claim and send (integration, kill -9)", function () {
  this.timeout(120_000);
  let server: TestDatabase | undefined;
  let opened: Database | undefined;
  let url: string | null = null;
  let ntfy: FakeNtfy | undefined;

  before(async function () {
    server = await acquireDatabase("reminder crash");
    url = server.url ?? null;
    if (!url) {
      console.warn("      SKIPPED LOUDLY: a second process needs PostgreSQL (TEST_DATABASE_URL); PGlite is in process");
      this.skip();
    }
    opened = await openDatabase({ databaseUrl: url, dataDir: ":memory:" });
    await migrateToLatest(opened.knex);
    ntfy = await FakeNtfy.start();
  });
  after(async () => {
    await ntfy?.close();
    await opened?.close();
    await server?.release();
  });
  const database = (): Database => {
    if (!opened) throw new Error("no database");
    return opened;
  };
  const published = () => ntfy?.published ?? [];

  /** One reminder check in a process of its own, at `now`. */
  function check(now: Date, options: { stopAfterClaim?: boolean } = {}) {
    return launch(process.execPath, ["--import", "tsx", SENDER], {
      DATABASE_URL: url ?? "",
      NTFY_URL: ntfy?.url ?? "",
      NOW: now.toISOString(),
      ...(options.stopAfterClaim ? { STOP_AFTER_CLAIM: "1" } : {}),
    });
  }

  it("sends the reminder once after the crash, carrying the household-and-day key, and never again that day", async () => {
    const { knex } = database();
    const world = makeWorld();
    await seedWorld(knex, world);
    const { householdId } = world.home;
    await new KnexItemRepository(knex).create(
      itemIn(world, { name: "Fish", expiresAt: new Date("2026-06-02T00:00:00Z") }),
    );
    const reminders = new KnexReminderRepository(knex);
    await reminders.save({
      householdId,
      enabled: true,
      daysAhead: 3,
      timeOfDay: "18:00",
      channel: "freezer",
      updatedAt: new Date(),
    });
    const at = new Date("2026-06-01T18:00:00Z");

    const doomed = check(at, { stopAfterClaim: true });
    await new Promise<void>((resolve, reject) => {
      doomed.child.stdout?.on("data", () => {
        if (doomed.output().includes("claimed")) resolve();
      });
      doomed.exited.then(() => reject(new Error(`the check exited before claiming:\n${doomed.output()}`)));
    });
    doomed.child.kill("SIGKILL");
    expect(await doomed.exited).to.equal(null);
    expect(published(), "nothing went out before the kill").to.have.length(0);
    expect((await reminders.find(householdId))?.lastSentOn, "the day is not recorded as sent").to.equal(null);

    // Within the claim's lease another check leaves it alone (the claimant could still be sending).
    const early = check(new Date(at.getTime() + REMINDER_CLAIM_MS - 1000));
    expect(await early.exited, early.output()).to.equal(0);
    expect(early.output()).to.include("sent []");
    expect(published()).to.have.length(0);

    const retry = check(new Date(at.getTime() + REMINDER_CLAIM_MS + 1000));
    expect(await retry.exited, retry.output()).to.equal(0);
    expect(retry.output()).to.include(`sent ["${householdId}"]`);
    expect(published()).to.have.length(1);
    expect(published()[0]).to.include({
      topic: "freezer-alerts",
      sequence_id: `hearth-reminder-2026-06-01-${householdId}`,
    });
    expect(published()[0]?.message).to.include("Fish");
    expect((await reminders.find(householdId))?.lastSentOn).to.equal("2026-06-01");

    const later = check(new Date(at.getTime() + 4 * REMINDER_CLAIM_MS));
    expect(await later.exited, later.output()).to.equal(0);
    expect(later.output()).to.include("sent []");
    expect(published(), "sent once, not again").to.have.length(1);
  });
});
