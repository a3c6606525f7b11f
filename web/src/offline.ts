/**
 * What this browser keeps for offline use, in IndexedDB (the plain API, no library): the items
 * it has seen, searchable and filterable without the server, and the writes made offline
 * (add, take out) waiting to be sent.
 */
import type { Item, ItemFields, ItemQuery, ShoppingUnit } from "./api.js";
import { collator } from "./format.js";

const DB_NAME = "hearth";
const ITEMS = "items";
const QUEUE = "queue";

/** A shopping-list entry added offline: what the add form sent, and whether it was checked off since. */
export interface QueuedShoppingAddition {
  name: string;
  quantity: number;
  unit: ShoppingUnit;
  checked?: boolean;
}

/**
 * A write made offline, in the order it was made: items added and taken out, and the shopping
 * list used in a shop without signal (entries added, checked off or back, removed).
 */
export type QueuedWrite = {
  id?: number;
  householdId: string;
  /** The item's or entry's name, so the pending list can say what it is about. */
  name: string;
  /** "waiting" until sent; "refused" keeps the server's answer on screen until dismissed. */
  status: "waiting" | "refused";
  problem?: string;
} & (
  | { kind: "add"; body: ItemFields }
  | { kind: "takeOut"; itemId: string; body: { quantity: number } }
  | { kind: "shoppingAdd"; body: QueuedShoppingAddition }
  | { kind: "shoppingCheck"; entryId: string; checked: boolean }
  | { kind: "shoppingRemove"; entryId: string }
);

let opening: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  opening ??= new Promise((resolve) => {
    if (typeof indexedDB === "undefined") {
      resolve(null);
      return;
    }
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore(ITEMS, { keyPath: "id" }).createIndex("householdId", "householdId");
      db.createObjectStore(QUEUE, { keyPath: "id", autoIncrement: true });
    };
    request.onsuccess = () => resolve(request.result);
    // Private mode or storage switched off: the app works, only without the offline copy.
    request.onerror = () => resolve(null);
  });
  return opening;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(name: string, mode: IDBTransactionMode): Promise<IDBObjectStore | null> {
  const db = await open();
  return db ? db.transaction(name, mode).objectStore(name) : null;
}

/** Keeps loaded items (and forgets archived ones) for offline use. */
export async function keepItems(items: Item[]): Promise<void> {
  try {
    const items$ = await store(ITEMS, "readwrite");
    for (const item of items) {
      if (item.deletedAt) items$?.delete(item.id);
      else items$?.put(item);
    }
  } catch {
    // Storage full: the offline copy is a convenience, never a reason for a failure.
  }
}

export async function forgetItem(itemId: string): Promise<void> {
  try {
    (await store(ITEMS, "readwrite"))?.delete(itemId);
  } catch {
    // As above.
  }
}

/** The household's kept items, searched, filtered and sorted here as the API would. */
export async function keptItems(householdId: string, query: ItemQuery): Promise<Item[] | null> {
  try {
    const items$ = await store(ITEMS, "readonly");
    if (!items$) return null;
    const all = (await done(items$.index("householdId").getAll(householdId))) as Item[];
    const fold = (text: string) =>
      text
        .normalize("NFD")
        .replace(/\p{Diacritic}/gu, "")
        .toLocaleLowerCase();
    const words = fold(query.search ?? "")
      .split(/\s+/)
      .filter(Boolean);
    const matches = all.filter((item) => {
      const haystack = fold(`${item.name} ${item.notes ?? ""}`);
      if (!words.every((word) => haystack.includes(word))) return false;
      if (query.freezerId && item.freezerId !== query.freezerId) return false;
      if (query.compartmentIds?.length && !query.compartmentIds.includes(item.compartmentId)) return false;
      if (query.expiresBefore && !(item.expiresAt && item.expiresAt < query.expiresBefore)) return false;
      // "none" is the uncategorised items; items kept before categories have none.
      if (query.categoryId && (item.categoryId ?? "none") !== query.categoryId) return false;
      return true;
    });
    const direction = query.order === "asc" ? 1 : -1;
    const field = query.sort ?? "createdAt";
    return matches.sort((a, b) => {
      if (field === "name") return direction * collator.compare(a.name, b.name);
      if (field === "quantity") return direction * (a.quantity - b.quantity);
      const left = a[field] ?? "";
      const right = b[field] ?? "";
      return direction * (left < right ? -1 : left > right ? 1 : 0);
    });
  } catch {
    return null;
  }
}

export async function keptItem(itemId: string): Promise<Item | null> {
  try {
    const items$ = await store(ITEMS, "readonly");
    return items$ ? (((await done(items$.get(itemId))) as Item | undefined) ?? null) : null;
  } catch {
    return null;
  }
}

export async function queuedWrites(): Promise<QueuedWrite[]> {
  try {
    const queue = await store(QUEUE, "readonly");
    return queue ? ((await done(queue.getAll())) as QueuedWrite[]) : [];
  } catch {
    return [];
  }
}

export async function queueWrite(write: QueuedWrite): Promise<void> {
  const queue = await store(QUEUE, "readwrite");
  if (!queue) throw new Error("no storage for offline writes");
  await done(queue.add(write));
}

export async function updateWrite(write: QueuedWrite): Promise<void> {
  const queue = await store(QUEUE, "readwrite");
  if (queue) await done(queue.put(write));
}

export async function removeWrite(id: number): Promise<void> {
  const queue = await store(QUEUE, "readwrite");
  if (queue) await done(queue.delete(id));
}

export async function forgetEverything(): Promise<void> {
  try {
    const db = await open();
    if (!db) return;
    const transaction = db.transaction([ITEMS, QUEUE], "readwrite");
    transaction.objectStore(ITEMS).clear();
    transaction.objectStore(QUEUE).clear();
  } catch {
    // Nothing kept.
  }
}
