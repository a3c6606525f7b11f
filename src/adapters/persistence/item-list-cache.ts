import type { ItemListQuery, ItemPage } from "../../ports/item-repository.js";

interface Entry {
  revision: string;
  page: ItemPage;
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
 * Least recently used entries go first once `capacity` pages are held.
 */
export class ItemListCache {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly capacity: number) {}

  get(query: ItemListQuery, revision: string): ItemPage | undefined {
    const key = cacheKey(query);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.revision !== revision) return undefined;
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
    this.entries.delete(key);
    this.entries.set(key, { revision, page });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
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
