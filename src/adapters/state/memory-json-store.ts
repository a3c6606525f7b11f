import type { JsonStore } from "../../ports/json-store.js";

/** Keeps the document in memory (as JSON text, so callers never share references with it). */
export class MemoryJsonStore implements JsonStore {
  private text: string | undefined;
  saves = 0;

  async load(): Promise<unknown> {
    return this.text === undefined ? undefined : JSON.parse(this.text);
  }

  async save(document: unknown): Promise<void> {
    this.text = JSON.stringify(document);
    this.saves++;
  }
}
