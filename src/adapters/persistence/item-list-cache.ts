import type { ItemListQuery, ItemPage } from "../../ports/item-repository.js";

interface Entry {
  revision: string;
  page: ItemPage;
  /** What the page holds in memory, roughly (approximateBytes). */
  bytes: number;
}

/**
 * What all pages together may hold, by default. The page count alone does not bound memory: a
 * page of 100 items with 2 000-character notes holds about 1 MB, and 500 of them would hold
 * 500 MB. 16 MB keeps the usual pages (a few tens of kB) up to the page count.
 */
export const ITEM_LIST_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The memory a page's values take, roughly: strings at two bytes a character (V8 keeps
 * non-Latin-1 text that way), objects and other values at a pointer-sized slot plus a header.
 */
export function approximateBytes(value: unknown): number {
  if (typeof value === "string") return 16 + 2 * value.length;
  if (value === null || typeof value !== "object") return 8;
  if (value instanceof Date) return 32;
  let bytes = 32;
  for (const member of Array.isArray(value) ? value : Object.values(value)) bytes += 8 + approximateBytes(member);
  return bytes;
}

/**
 * Recently served item-list pages, each remembered with the household's item revision
 * (the sum of its rows in household_item_counters, moved by triggers on every write) it was
 * computed at.
 * A page is reused only while that revision is current, so a write anywhere (this process,
 * another Hearth process, psql) retires it at once. The point is the phone app that opens
 * the list or repeats a search: ranking and counting thousands of matches costs the
 * database milliseconds each time, while a revision check reads at most 16 rows by primary key.
 *
 * Least recently used entries go first once `capacity` pages, or `maxBytes` of them, are held.
 */
export class ItemListCache {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes = ITEM_LIST_CACHE_MAX_BYTES,
  ) {}

  get(query: ItemListQuery, revision: string): ItemPage | undefined {
    const key = cacheKey(query);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.revision !== revision) {
      this.held -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.page;
  }

  /** Whether a page of this query is held, at any revision (does not count as a use). */
  holds(query: ItemListQuery): boolean {
    return this.entries.has(cacheKey(query));
  }

  set(query: ItemListQuery, revision: string, page: ItemPage): void {
    if (this.capacity <= 0) return;
    const key = cacheKey(query);
    this.forget(key);
    const bytes = approximateBytes(page);
    // One page over the whole budget would only push every other page out, and then itself.
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { revision, page, bytes });
    this.held += bytes;
    while (this.entries.size > this.capacity || this.held > this.maxBytes) {
      this.forget(this.entries.keys().next().value as string);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the held pages take, as approximateBytes counts it. */
  get bytes(): number {
    return this.held;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }
}

/**
 * Built from every field of the query (a filter added later is part of the key without
 * anyone remembering to add it here); compartment order does not change the result.
 */
function cacheKey(query: ItemListQuery): string {
  const fields = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, name === "compartmentIds" ? [...(value as string[])].sort() : value]);
  return JSON.stringify(fields.sort(([a], [b]) => (a < b ? -1 : 1)));
}
