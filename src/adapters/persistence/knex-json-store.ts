import type { Knex } from "knex";
import type { JsonStore } from "../../ports/json-store.js";
import type { Logger } from "../../ports/logger.js";

export interface KnexJsonStoreOptions {
  knex: Knex;
  /** Which document (`state`, `device-registry`). */
  name: string;
  logger: Logger;
  /**
   * The lease token writes are fenced with: a save is written only while that token holds a
   * live lease. Returns null when this process does not lead (the save is skipped).
   */
  fence?: () => number | null;
  leaseName?: string;
}

/**
 * A JSON document in one row of `engine_documents` (the automation state, the device
 * registry), so every Hearth process on the database loads what the last leader wrote.
 */
export class KnexJsonStore implements JsonStore {
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: KnexJsonStoreOptions) {}

  async load(): Promise<unknown> {
    const row = await this.options
      .knex("engine_documents")
      .where({ name: this.options.name })
      .first<{ body: unknown } | undefined>("body");
    return row?.body;
  }

  /** Saves are serialised, so the last call's document is the one left. */
  save(document: unknown): Promise<void> {
    const write = this.writing.then(() => this.write(document));
    this.writing = write.catch(() => undefined);
    return write;
  }

  async moveAside(): Promise<string | null> {
    const aside = `${this.options.name}.corrupt-${Date.now()}`;
    const moved = await this.options
      .knex("engine_documents")
      .where({ name: this.options.name })
      .update({ name: aside });
    return moved === 0 ? null : aside;
  }

  private async write(document: unknown): Promise<void> {
    const body = JSON.stringify(document);
    const { knex, name } = this.options;
    if (!this.options.fence) {
      await knex.raw(
        `INSERT INTO engine_documents (name, body, updated_at) VALUES (?, ?::jsonb, now())
         ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated_at = now()`,
        [name, body],
      );
      return;
    }
    const token = this.options.fence();
    if (token === null) {
      // A standby keeps its changes in memory only: the leader's document is the one that counts.
      this.options.logger.debug("Not saved: this instance is a standby", { document: name });
      return;
    }
    const result = await knex.raw<{ rowCount: number | null }>(
      `INSERT INTO engine_documents (name, body, updated_at)
       SELECT ?, ?::jsonb, now() WHERE EXISTS (
         SELECT 1 FROM engine_leases WHERE name = ? AND token = ? AND expires_at >= now())
       ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated_at = now()`,
      [name, body, this.options.leaseName ?? "engine", token],
    );
    const written = result.rowCount ?? 0;
    // A late save of a leader that lost its lease would overwrite what the new leader keeps.
    if (written === 0)
      this.options.logger.warn("Not saved: this instance no longer holds the engine lease", { document: name });
  }
}
