import type { JsonStore } from "../../ports/json-store.js";

/** Keeps the document in memory (as JSON text, so callers never share references with it). */
export class MemoryJsonStore implements JsonStore {
  private text: string | undefined;
  saves = 0;
  /** Documents moved aside, oldest first (as JSON text). */
  readonly movedAside: string[] = [];

  async load(): Promise<unknown> {
    return this.text === undefined ? undefined : JSON.parse(this.text);
  }

  async save(document: unknown): Promise<void> {
    this.text = JSON.stringify(document);
    this.saves++;
  }

  async moveAside(): Promise<string | null> {
    if (this.text === undefined) return null;
    this.movedAside.push(this.text);
    this.text = undefined;
    return `memory:moved-aside-${this.movedAside.length}`;
  }
}
