import type { ChangeLogEntry, ChangeLogEntryView } from "../../domain/inventory/change-log-entry.js";
import {
  type FreezerItem,
  type FreezerItemView,
  type ItemSortField,
  type UserSummary,
  searchesInsideWords,
  searchTerms,
} from "../../domain/inventory/freezer-item.js";
import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import type {
  ItemListQuery,
  ItemPage,
  ItemRepository,
  ItemUpdater,
  DeleteCheck,
  MemberCreate,
  MemberItem,
  MemberRead,
  UserSummarySource,
} from "../../ports/item-repository.js";
import type { ItemPlacementLookup } from "../../ports/item-placement.js";
import type { MemoryInventoryOutbox } from "./memory-inventory-outbox.js";
import { foldSearchText, searchWords } from "./memory-search-words.js";
import type { MembershipSource } from "../../ports/household-repository.js";

type Comparable = string | number | null;

function compareValues(a: Comparable, b: Comparable): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function sortKey(item: FreezerItem, field: ItemSortField): Comparable {
  switch (field) {
    case "name":
      return foldSearchText(item.name);
    case "quantity":
      return item.quantity;
    case "createdAt":
      return item.createdAt.getTime();
    case "expiresAt":
      return item.expiresAt?.getTime() ?? null;
    case "storedAt":
      return item.storedAt?.getTime() ?? null;
  }
}

/**
 * Whether the name matches every search word and, if so, its relevance, as the SQL adapter
 * computes both: words of three characters or more are looked for anywhere in the folded
 * name, shorter ones at word beginnings only; each word scores 2 when it is a whole word of
 * the name, 1 when it begins one, 0 when it is only found inside one.
 */
function searchRank(name: string, terms: string[]): number | undefined {
  const nameWords = searchWords(name);
  const foldedName = foldSearchText(name);
  const beginsWord = (words: string[]) =>
    words.length > 0 && words.every((word) => nameWords.some((nameWord) => nameWord.startsWith(word)));
  const short = terms.filter((term) => !searchesInsideWords(term));
  // The SQL adapter puts every short word into one prefix query, which matches nothing when
  // they all fold away.
  if (short.length > 0 && !beginsWord(short.flatMap(searchWords))) return undefined;
  let rank = 0;
  for (const term of terms) {
    if (searchesInsideWords(term) && !foldedName.includes(foldSearchText(term))) return undefined;
    const words = searchWords(term);
    if (words.length > 0 && words.every((word) => nameWords.includes(word))) rank += 1;
    if (beginsWord(words)) rank += 1;
  }
  return rank;
}

/** By the folded name (unaccented, lower-case), then the name as stored, then the id. */
function byName(a: FreezerItem, b: FreezerItem): number {
  return (
    compareValues(foldSearchText(a.name), foldSearchText(b.name)) ||
    compareValues(a.name, b.name) ||
    compareValues(a.id, b.id)
  );
}

/** Most recently archived first, then by id descending, as the SQL adapter orders the archive. */
function byArchivedAt(a: FreezerItem, b: FreezerItem): number {
  return (b.deletedAt?.getTime() ?? 0) - (a.deletedAt?.getTime() ?? 0) || compareValues(b.id, a.id);
}

/**
 * Items and change log in process memory, for unit tests and the in-memory API. Behaves
 * like the SQL adapter, search included (same word splitting, infix and prefix matching, ranking).
 */
export class MemoryItemRepository implements ItemRepository {
  private readonly items = new Map<string, FreezerItem>();
  private readonly changes: ChangeLogEntry[] = [];
  /** Told of every item deleted for good, so rows kept elsewhere (photos) go with it, as the foreign keys cascade. */
  readonly deleteCascades: ((itemId: string) => void)[] = [];

  constructor(
    private readonly users: UserSummarySource,
    private readonly memberships: MembershipSource,
    private readonly placements: ItemPlacementLookup,
    private readonly outbox?: MemoryInventoryOutbox,
  ) {}

  async createForMember(userId: string, item: FreezerItem, events?: InventoryEvent[]): Promise<MemberCreate> {
    if (!(await this.memberships.findMembership(item.householdId, userId))) return { refused: "not-member" };
    const placed =
      (await this.placements.freezerInHousehold(item.householdId, item.freezerId)) &&
      (await this.placements.compartmentInFreezer(item.freezerId, item.compartmentId));
    if (!placed) return { refused: "placement" };
    if (item.categoryId !== null && !(await this.placements.categoryInHousehold(item.householdId, item.categoryId)))
      return { refused: "category" };
    return { created: await this.create(item, events) };
  }

  async create(item: FreezerItem, events?: InventoryEvent[]): Promise<FreezerItemView> {
    this.items.set(item.id, { ...item });
    this.outbox?.append(events);
    return this.view(item);
  }

  async insertMany(items: FreezerItem[]): Promise<void> {
    for (const item of items) this.items.set(item.id, { ...item });
  }

  async findById(householdId: string, itemId: string): Promise<FreezerItemView | undefined> {
    const item = this.items.get(itemId);
    if (!item || item.householdId !== householdId) return undefined;
    return this.view(item);
  }

  async findForMember({ userId, householdId, itemId }: MemberItem): Promise<MemberRead<FreezerItemView> | undefined> {
    if (!(await this.memberships.findMembership(householdId, userId))) return undefined;
    return { found: await this.findById(householdId, itemId) };
  }

  async historyForMember(ref: MemberItem): Promise<MemberRead<ChangeLogEntryView[]> | undefined> {
    const { userId, householdId, itemId } = ref;
    if (!(await this.memberships.findMembership(householdId, userId))) return undefined;
    if (!(await this.findById(householdId, itemId))) return { found: undefined };
    return { found: await this.history(itemId) };
  }

  async updateForMember(ref: MemberItem, updater: ItemUpdater): Promise<MemberRead<FreezerItemView> | undefined> {
    const { userId, householdId, itemId } = ref;
    if (!(await this.memberships.findMembership(householdId, userId))) return undefined;
    return { found: await this.update(householdId, itemId, updater) };
  }

  async listForMember(userId: string, query: ItemListQuery): Promise<ItemPage | undefined> {
    if (!(await this.memberships.findMembership(query.householdId, userId))) return undefined;
    return this.list(query);
  }

  async list(query: ItemListQuery): Promise<ItemPage> {
    const terms = query.search?.trim() ? searchTerms(query.search) : undefined;
    const ranked: { item: FreezerItem; rank: number }[] = [];
    for (const item of this.items.values()) {
      if (item.householdId !== query.householdId || (item.deletedAt !== null) !== (query.archived ?? false)) continue;
      if (query.freezerId !== undefined && item.freezerId !== query.freezerId) continue;
      if (query.compartmentIds?.length && !query.compartmentIds.includes(item.compartmentId)) continue;
      if (query.categoryId !== undefined && item.categoryId !== query.categoryId) continue;
      if (query.expiresBefore && !(item.expiresAt && item.expiresAt < query.expiresBefore)) continue;
      if (terms) {
        const rank = terms.length === 0 ? undefined : searchRank(item.name, terms);
        if (rank === undefined) continue;
        ranked.push({ item, rank });
      } else {
        ranked.push({ item, rank: 0 });
      }
    }
    ranked.sort(this.comparator(query, terms !== undefined));
    const offset = (query.page - 1) * query.limit;
    const page = ranked.slice(offset, offset + query.limit);
    return { items: await Promise.all(page.map(({ item }) => this.view(item))), total: ranked.length };
  }

  private comparator(
    query: ItemListQuery,
    searching: boolean,
  ): (a: { item: FreezerItem; rank: number }, b: { item: FreezerItem; rank: number }) => number {
    if (searching && !query.sort) return (a, b) => b.rank - a.rank || byName(a.item, b.item);
    if (query.archived && !query.sort) return (a, b) => byArchivedAt(a.item, b.item);
    const field = query.sort ?? "createdAt";
    const direction = (query.order ?? "desc") === "asc" ? 1 : -1;
    return (a, b) => {
      const ka = sortKey(a.item, field);
      const kb = sortKey(b.item, field);
      // Items without the value sort last whichever the direction.
      if (ka === null || kb === null) return compareValues(ka, kb) || direction * compareValues(a.item.id, b.item.id);
      return (
        direction * compareValues(ka, kb) ||
        (field === "name" ? direction * compareValues(a.item.name, b.item.name) : 0) ||
        direction * compareValues(a.item.id, b.item.id)
      );
    };
  }

  async listArchived(householdId: string): Promise<FreezerItemView[]> {
    const archived = [...this.items.values()]
      .filter((item) => item.householdId === householdId && item.deletedAt !== null)
      .sort(byArchivedAt);
    return Promise.all(archived.map((item) => this.view(item)));
  }

  async update(householdId: string, itemId: string, updater: ItemUpdater): Promise<FreezerItemView | undefined> {
    const current = this.items.get(itemId);
    if (!current || current.householdId !== householdId) return undefined;
    // The updater runs synchronously, so no other update of this item can interleave.
    const { item, changes, events } = updater({ ...current });
    this.items.set(itemId, { ...item });
    this.outbox?.append(events);
    this.changes.push(...changes.map((change) => ({ ...change })));
    return this.view(item);
  }

  async deletePermanently(householdId: string, itemId: string, check: DeleteCheck): Promise<boolean> {
    const current = this.items.get(itemId);
    if (!current || current.householdId !== householdId) return false;
    const events = check({ ...current });
    this.outbox?.append(events || undefined);
    this.items.delete(itemId);
    for (let index = this.changes.length - 1; index >= 0; index--) {
      if (this.changes[index]?.itemId === itemId) this.changes.splice(index, 1);
    }
    for (const cascade of this.deleteCascades) cascade(itemId);
    return true;
  }

  async history(itemId: string): Promise<ChangeLogEntryView[]> {
    const entries = this.changes
      .filter((change) => change.itemId === itemId)
      .sort(
        (a, b) =>
          b.changedAt.getTime() - a.changedAt.getTime() ||
          compareValues(a.fieldName, b.fieldName) ||
          compareValues(a.id, b.id),
      );
    return Promise.all(entries.map(async (entry) => ({ ...entry, changedBy: await this.user(entry.changedById) })));
  }

  /** Every item of the household, active and archived, by id (export). */
  householdItems(householdId: string): FreezerItem[] {
    return [...this.items.values()]
      .filter((item) => item.householdId === householdId)
      .sort((a, b) => compareValues(a.id, b.id))
      .map((item) => ({ ...item }));
  }

  /** The change log of the household's items, by id (export). */
  householdHistory(householdId: string): ChangeLogEntry[] {
    return this.changes
      .filter((change) => this.items.get(change.itemId)?.householdId === householdId)
      .sort((a, b) => compareValues(a.id, b.id))
      .map((change) => ({ ...change }));
  }

  /** Whether any household holds an item with this id. */
  holds(itemId: string): FreezerItem | undefined {
    return this.items.get(itemId);
  }

  /** Removes every item of a household (the household's cascade delete). */
  deleteHousehold(householdId: string): void {
    for (const [id, item] of this.items) {
      if (item.householdId !== householdId) continue;
      this.items.delete(id);
      for (let index = this.changes.length - 1; index >= 0; index--) {
        if (this.changes[index]?.itemId === id) this.changes.splice(index, 1);
      }
      for (const cascade of this.deleteCascades) cascade(id);
    }
  }

  /** Uncategorises every item of a deleted category (the SQL foreign key's SET NULL); how many. */
  uncategorise(householdId: string, categoryId: string): number {
    let count = 0;
    for (const [id, item] of this.items) {
      if (item.householdId !== householdId || item.categoryId !== categoryId) continue;
      this.items.set(id, { ...item, categoryId: null });
      count++;
    }
    return count;
  }

  /** Whether any item (active or archived) sits in the freezer or compartment; guards their deletion. */
  hasItemsIn(place: { freezerId?: string; compartmentId?: string }): boolean {
    for (const item of this.items.values()) {
      if (place.freezerId !== undefined && item.freezerId === place.freezerId) return true;
      if (place.compartmentId !== undefined && item.compartmentId === place.compartmentId) return true;
    }
    return false;
  }

  private async user(userId: string): Promise<UserSummary> {
    const user = await this.users.findById(userId);
    // A missing user would be a broken reference; show it rather than fail the whole list.
    return user ? { id: user.id, email: user.email, name: user.name } : { id: userId, email: "", name: "" };
  }

  private async view(item: FreezerItem): Promise<FreezerItemView> {
    const [createdBy, updatedBy] = await Promise.all([this.user(item.createdById), this.user(item.updatedById)]);
    return { ...item, createdBy, updatedBy };
  }
}
