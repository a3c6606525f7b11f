import { expect } from "chai";
import { approximateBytes, ItemListCache } from "../../../src/adapters/persistence/item-list-cache.js";
import type { FreezerItemView } from "../../../src/domain/inventory/freezer-item.js";
import type { ItemListQuery, ItemPage } from "../../../src/ports/item-repository.js";

const query = (overrides: Partial<ItemListQuery> = {}): ItemListQuery => ({
  householdId: "h1",
  page: 1,
  limit: 20,
  ...overrides,
});
const page = (total: number): ItemPage => ({ items: [], total });

describe("ItemListCache", () => {
  it("returns a page only at the revision it was stored with", () => {
    const cache = new ItemListCache(10);
    cache.set(query(), "7", page(3));
    expect(cache.get(query(), "7")?.total).to.equal(3);
    expect(cache.get(query(), "8")).to.equal(undefined);
    // A stale entry is dropped when met, not kept around until eviction.
    expect(cache.size).to.equal(0);
    expect(cache.get(query(), "7")).to.equal(undefined);
  });

  it("tells apart every field that changes the result", () => {
    const cache = new ItemListCache(50);
    const variants: Partial<ItemListQuery>[] = [
      {},
      { householdId: "h2" },
      { freezerId: "f1" },
      { compartmentIds: ["c1"] },
      { search: "peas" },
      { search: "pea" },
      { expiresBefore: new Date("2027-01-01T00:00:00Z") },
      { expiresBefore: new Date("2027-01-02T00:00:00Z") },
      { sort: "name" },
      { sort: "name", order: "asc" },
      { page: 2 },
      { limit: 50 },
    ];
    for (const [index, variant] of variants.entries()) cache.set(query(variant), "1", page(index));
    for (const [index, variant] of variants.entries()) expect(cache.get(query(variant), "1")?.total).to.equal(index);
  });

  it("treats the same compartments in another order as the same query", () => {
    const cache = new ItemListCache(10);
    cache.set(query({ compartmentIds: ["b", "a"] }), "1", page(2));
    expect(cache.get(query({ compartmentIds: ["a", "b"] }), "1")?.total).to.equal(2);
  });

  it("evicts the least recently used page beyond its capacity", () => {
    const cache = new ItemListCache(2);
    cache.set(query({ page: 1 }), "1", page(1));
    cache.set(query({ page: 2 }), "1", page(2));
    cache.get(query({ page: 1 }), "1");
    cache.set(query({ page: 3 }), "1", page(3));
    expect(cache.size).to.equal(2);
    expect(cache.get(query({ page: 2 }), "1")).to.equal(undefined);
    expect(cache.get(query({ page: 1 }), "1")?.total).to.equal(1);
    expect(cache.get(query({ page: 3 }), "1")?.total).to.equal(3);
  });

  it("keeps nothing with a capacity of 0", () => {
    const cache = new ItemListCache(0);
    cache.set(query(), "1", page(1));
    expect(cache.get(query(), "1")).to.equal(undefined);
    expect(cache.size).to.equal(0);
  });

  it("holds at most maxBytes of pages, least recently used out first, whatever the page count allows", () => {
    // Items with long notes, as any member may write them: the byte budget, not the count, is the bound.
    const heavy = (total: number): ItemPage => ({
      items: Array.from({ length: 10 }, () => ({ notes: "é".repeat(2000) }) as unknown as FreezerItemView),
      total,
    });
    const one = approximateBytes(heavy(0));
    expect(one).to.be.greaterThan(40_000);
    const cache = new ItemListCache(500, Math.floor(one * 2.5));
    cache.set(query({ page: 1 }), "1", heavy(1));
    cache.set(query({ page: 2 }), "1", heavy(2));
    cache.get(query({ page: 1 }), "1");
    cache.set(query({ page: 3 }), "1", heavy(3));
    expect(cache.size).to.equal(2);
    expect(cache.bytes).to.be.at.most(cache.maxBytes);
    expect(cache.get(query({ page: 2 }), "1")).to.equal(undefined);
    expect(cache.get(query({ page: 1 }), "1")?.total).to.equal(1);
    expect(cache.get(query({ page: 3 }), "1")?.total).to.equal(3);
  });

  it("does not keep a page larger than the whole budget, and keeps the others", () => {
    const cache = new ItemListCache(10, 1_000);
    cache.set(query({ page: 1 }), "1", page(1));
    cache.set(query({ page: 2 }), "1", {
      items: [{ notes: "x".repeat(1_000) } as unknown as FreezerItemView],
      total: 2,
    });
    expect(cache.get(query({ page: 2 }), "1")).to.equal(undefined);
    expect(cache.get(query({ page: 1 }), "1")?.total).to.equal(1);
  });

  it("counts the bytes back down as pages are replaced, retired by a new revision, or evicted", () => {
    const cache = new ItemListCache(2);
    cache.set(query({ page: 1 }), "1", page(1));
    cache.set(query({ page: 1 }), "1", page(1));
    cache.set(query({ page: 2 }), "1", page(2));
    const two = cache.bytes;
    cache.get(query({ page: 1 }), "2");
    expect(cache.bytes).to.be.lessThan(two);
    cache.set(query({ page: 3 }), "1", page(3));
    cache.set(query({ page: 4 }), "1", page(4));
    expect(cache.size).to.equal(2);
    expect(cache.bytes).to.equal(two);
  });
});
