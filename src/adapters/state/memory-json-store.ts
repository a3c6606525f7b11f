import type { JsonStore } from "../../ports/json-store.js";

/**
 * Keeps the document in memory as JSON text, so callers never share references with it;
 * for the library's in-memory setups and for tests, which read `document` and `movedAside`.
 */
export class MemoryJsonStore implements JsonStore {
  private text: string | undefined;
  saves = 0;
  private readonly asideTexts: string[] = [];

  /** `initial`: a document already stored, as if saved by an earlier run. */
  constructor(initial?: unknown) {
    if (initial !== undefined) this.text = JSON.stringify(initial);
  }

  /** The stored document (a copy), or undefined when nothing is stored. */
  get document(): unknown {
    return this.text === undefined ? undefined : JSON.parse(this.text);
  }

  /** Documents moved aside, oldest first (copies). */
  get movedAside(): unknown[] {
    return this.asideTexts.map((text) => JSON.parse(text));
  }

  async load(): Promise<unknown> {
    return this.document;
  }

  async save(document: unknown): Promise<void> {
    this.text = JSON.stringify(document);
    this.saves++;
  }

  async moveAside(): Promise<string | null> {
    if (this.text === undefined) return null;
    this.asideTexts.push(this.text);
    this.text = undefined;
    return `memory:moved-aside-${this.asideTexts.length}`;
  }
}
