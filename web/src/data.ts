import {
  ApiError,
  api,
  type FreezerDetail,
  type Household,
  type Item,
  type ItemFields,
  refreshSession,
  type ShoppingListEntry,
  sessionUser,
  type User,
} from "./api.js";
import { describeError } from "./errors.js";
import { t } from "./i18n/index.js";
import {
  forgetEverything,
  forgetItem,
  type QueuedShoppingAddition,
  type QueuedWrite,
  queuedWrites,
  queueWrite,
  removeWrite,
  updateWrite,
} from "./offline.js";
import type { ShownEntry } from "./shopping.js";
import { formatNumber, setFamilyTimeZone } from "./format.js";
import { navigate } from "./router.js";
import { announce, currentHousehold, forgetAll, getState, recall, remember, setState } from "./store.js";

/** Marks the app offline when a request could not reach the server at all. */
export function noteFailure(error: unknown): void {
  if (error instanceof ApiError && error.status === 0) setState({ online: false });
}

/**
 * The household a link names (`?household=`, as a reminder's notification opens the app), read
 * once: taken out of the address so it does not override a later switch.
 */
function linkedHousehold(): string | null {
  const params = new URLSearchParams(location.search);
  const linked = params.get("household");
  if (!linked) return null;
  params.delete("household");
  const search = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${search ? `?${search}` : ""}${location.hash}`);
  return linked;
}

/** Loads the user's households and picks one (the last used, else the first). */
export async function loadHouseholds(): Promise<Household[]> {
  try {
    let households: Household[];
    try {
      households = await api.households();
    } catch (error) {
      // A failed load is not "no household": the home screen says what failed and offers a retry.
      setState({ householdsError: error });
      throw error;
    }
    remember("households", households);
    // A household left for good that is back in the list: the user joined it again.
    for (const household of households) if (departing.get(household.id) === true) departing.delete(household.id);
    const wanted = linkedHousehold() ?? getState().householdId ?? recall<string>("householdId");
    const householdId = households.find((household) => household.id === wanted)?.id ?? households[0]?.id ?? null;
    setFamilyTimeZone(households.find((household) => household.id === householdId)?.timeZone);
    setState({ households, householdId, householdsLoaded: true, householdsError: null });
    if (householdId) remember("householdId", householdId);
    await loadFreezers();
    return households;
  } catch (error) {
    noteFailure(error);
    throw error;
  }
}

/**
 * Which other household of the user's holds `itemId`, for a link to an item opened while another
 * household is selected (a family member of two shares a link from the other one); null when none
 * does. Each household is asked in turn: the API names no household by item.
 */
export async function householdHolding(itemId: string, except: string): Promise<Household | null> {
  for (const household of getState().households) {
    if (household.id === except) continue;
    try {
      await api.item(household.id, itemId);
      return household;
    } catch (error) {
      // Not there (404) or not answered: the next household may still have it.
      noteFailure(error);
    }
  }
  return null;
}

export async function selectHousehold(householdId: string): Promise<void> {
  remember("householdId", householdId);
  setFamilyTimeZone(getState().households.find((household) => household.id === householdId)?.timeZone);
  setState({ householdId, freezers: recall<FreezerDetail[]>(`freezers.${householdId}`) ?? [] });
  await loadFreezers();
}

/** Freezers with their compartments, which the item screens use to name places. */
export async function loadFreezers(): Promise<void> {
  const householdId = getState().householdId;
  if (!householdId) {
    setState({ freezers: [] });
    return;
  }
  try {
    const freezers = await api.freezers(householdId);
    const details = await Promise.all(freezers.map((freezer) => api.freezer(householdId, freezer.id)));
    remember(`freezers.${householdId}`, details);
    if (getState().householdId === householdId) setState({ freezers: details });
  } catch (error) {
    noteFailure(error);
    throw error;
  }
}

/** After a sign-in: the user, their households, and an invite they opened before signing in. */
export async function signedIn(user: User): Promise<void> {
  remember("user", user);
  // A notice from before signing in ("signed out on this device") is done with.
  setState({ user, notice: null });
  await loadHouseholds().catch(() => undefined);
}

/** Starts the app offline from what the last session stored. */
export function startOffline(): void {
  const user = recall<User>("user");
  const households = recall<Household[]>("households") ?? [];
  const householdId = recall<string>("householdId") ?? households[0]?.id ?? null;
  setFamilyTimeZone(households.find((household) => household.id === householdId)?.timeZone);
  setState({
    online: false,
    user,
    households,
    householdId,
    householdsLoaded: recall<Household[]>("households") !== null,
    freezers: householdId ? (recall<FreezerDetail[]>(`freezers.${householdId}`) ?? []) : [],
  });
}

/**
 * Forgets the signed-out user everywhere this browser kept them: the stored copies, the kept items
 * and writes waiting to be sent, and what is on screen, so the next person to sign in on a shared
 * device sees none of it. Every tab runs it (the others when the session channel tells them).
 */
export function signedOut(): void {
  forgetAll();
  void forgetEverything();
  setState({
    user: null,
    households: [],
    householdId: null,
    freezers: [],
    householdsLoaded: false,
    householdsError: null,
    pending: [],
    notice: null,
  });
}

/** Resumes the session from the refresh cookie, or starts offline from the stored copy. */
export async function boot(): Promise<void> {
  setState({ bootError: null });
  try {
    if ((await refreshSession()) && sessionUser()) await signedIn(sessionUser()!);
    else setState({ user: null });
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) startOffline();
    // A busy or failing server is not a signed-out user: the start screen offers a retry.
    else setState({ bootError: error });
  }
}

export { keepItems, keptItem, keptItems } from "./offline.js";

function offline(): boolean {
  return navigator.onLine === false || !getState().online;
}

async function refreshPending(): Promise<void> {
  setState({ pending: await queuedWrites() });
}

/**
 * Sends a write now, or queues it when this device is offline or the request could not reach the
 * server (a refusal is the caller's to show). The queued write is sent by `flushPending` once the
 * connection is back.
 */
async function sendOrQueue<T>(write: QueuedWrite, send: () => Promise<T>): Promise<T | "queued"> {
  const queue = async () => {
    await queueWrite(write);
    await refreshPending();
    return "queued" as const;
  };
  if (offline()) return queue();
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 0)) throw error;
    noteFailure(error);
    return queue();
  }
}

/** Adds an item now, or (offline) queues it and says so. */
export function addItem(householdId: string, body: ItemFields): Promise<Item | "queued"> {
  return sendOrQueue({ householdId, kind: "add", name: body.name ?? "", body, status: "waiting" }, () =>
    api.createItem(householdId, body),
  );
}

/** Takes `quantity` out of an item now, or (offline) queues it and says so. */
export function takeOut(householdId: string, item: Item, quantity: number): Promise<Item | "queued"> {
  const write: QueuedWrite = {
    householdId,
    kind: "takeOut",
    name: item.name,
    itemId: item.id,
    body: { quantity },
    status: "waiting",
  };
  return sendOrQueue(write, async () => {
    const left = await api.consumeItem(householdId, item.id, quantity);
    if (left.deletedAt) void forgetItem(item.id);
    return left;
  });
}

// ---- the shopping list, also in a shop without signal ----------------------------------------

/**
 * The shopping list's changes from this tab, one after the other in the order they were made: a
 * quick tick and untick must reach the queue (or the server) in that order, and a newer tick
 * replaces a waiting one only once that one is stored.
 */
let shoppingTurn: Promise<unknown> = Promise.resolve();

function inTurn<T>(change: () => Promise<T>): Promise<T> {
  const result = shoppingTurn.then(change);
  shoppingTurn = result.catch(() => undefined);
  return result;
}

/** Puts something on the shopping list now, or (offline) queues it. */
export function addShoppingEntry(
  householdId: string,
  addition: QueuedShoppingAddition,
): Promise<ShoppingListEntry | "queued"> {
  return inTurn(() =>
    sendOrQueue({ householdId, kind: "shoppingAdd", name: addition.name, body: addition, status: "waiting" }, () =>
      api.addShoppingListEntry(householdId, addition),
    ),
  );
}

/** Drops this household's waiting ticks and removal of `entryId`: a newer change of the entry replaces them. */
async function dropWaitingShoppingWrites(householdId: string, entryId: string): Promise<void> {
  for (const write of await queuedWrites()) {
    const forEntry = (write.kind === "shoppingCheck" || write.kind === "shoppingRemove") && write.entryId === entryId;
    if (forEntry && write.householdId === householdId && write.status === "waiting" && write.id !== undefined) {
      await removeWrite(write.id);
    }
  }
}

/** The queued add behind an entry added on this device, if it still waits. */
async function waitingAdd(entry: ShownEntry): Promise<(QueuedWrite & { kind: "shoppingAdd" }) | null> {
  if (entry.waiting === undefined) return null;
  const write = (await queuedWrites()).find((candidate) => candidate.id === entry.waiting);
  return write?.kind === "shoppingAdd" && write.status === "waiting" ? write : null;
}

/**
 * Checks an entry off (or back) now, or (offline) queues it. Ticking the same entry again offline
 * replaces the waiting write rather than sending both; an entry added offline has its waiting add
 * changed instead, since the server does not know it yet.
 */
export function checkShoppingEntry(
  householdId: string,
  entry: ShownEntry,
  checked: boolean,
): Promise<ShoppingListEntry | "queued"> {
  return inTurn(async () => {
    const added = await waitingAdd(entry);
    if (added) {
      await updateWrite({ ...added, body: { ...added.body, checked } });
      await refreshPending();
      return "queued";
    }
    await dropWaitingShoppingWrites(householdId, entry.id);
    return sendOrQueue(
      { householdId, kind: "shoppingCheck", name: entry.name, entryId: entry.id, checked, status: "waiting" },
      () => api.updateShoppingListEntry(householdId, entry.id, { checked }),
    );
  });
}

/** Removes an entry now, or (offline) queues it; an entry added offline is simply not sent. */
export function removeShoppingEntry(householdId: string, entry: ShownEntry): Promise<"removed" | "queued"> {
  return inTurn(async () => {
    const added = await waitingAdd(entry);
    if (added?.id !== undefined) {
      await removeWrite(added.id);
      await refreshPending();
      return "removed";
    }
    await dropWaitingShoppingWrites(householdId, entry.id);
    return sendOrQueue(
      { householdId, kind: "shoppingRemove", name: entry.name, entryId: entry.id, status: "waiting" },
      async () => {
        await api.removeShoppingListEntry(householdId, entry.id);
        return "removed" as const;
      },
    );
  });
}

/** Sends one queued write; what it says once sent, or null for nothing. */
async function send(write: QueuedWrite): Promise<string | null> {
  switch (write.kind) {
    case "add":
      await rememberQueuedBarcode(await api.createItem(write.householdId, write.body));
      return t("offline.sentAdd", { name: write.name });
    case "takeOut":
      await api.consumeItem(write.householdId, write.itemId, write.body.quantity);
      return t("offline.sentTakeOut", { name: write.name });
    case "shoppingAdd":
      await api.addShoppingListEntry(write.householdId, write.body);
      return null;
    case "shoppingCheck":
      await api.updateShoppingListEntry(write.householdId, write.entryId, { checked: write.checked });
      return null;
    case "shoppingRemove":
      // Removed meanwhile by someone else: what the write wanted is done.
      await api.removeShoppingListEntry(write.householdId, write.entryId).catch((error: unknown) => {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      });
      return null;
  }
}

let flushing: Promise<void> | null = null;

/**
 * Sends the writes made offline, oldest first, once the connection is back. Each answer is kept
 * in view: a refusal (the item was used up meanwhile, a conflict) stays listed with the
 * server's reason until the user dismisses it; nothing is dropped silently. A call while a flush
 * runs waits for that one, so "put the shopping away" stocks what was checked off in the shop.
 */
export function flushPending(): Promise<void> {
  if (offline()) return Promise.resolve();
  flushing ??= flush().finally(() => {
    flushing = null;
  });
  return flushing;
}

async function flush(): Promise<void> {
  let shoppingSent = 0;
  try {
    for (const write of await queuedWrites()) {
      if (write.status !== "waiting" || write.id === undefined) continue;
      try {
        const said = await send(write);
        await removeWrite(write.id);
        if (said) announce(said);
        else shoppingSent++;
      } catch (error) {
        // Unreachable or busy: this write and the rest wait for the next try. A failing server
        // refuses nothing either: the write waits, and the next ones are tried.
        if (error instanceof ApiError && (error.status === 0 || error.status === 429)) {
          noteFailure(error);
          break;
        }
        if (error instanceof ApiError && error.status >= 500) continue;
        await updateWrite({ ...write, status: "refused", problem: describeError(error) });
      }
    }
  } finally {
    if (shoppingSent > 0) announce(t("offline.sentShopping", { count: formatNumber(shoppingSent) }));
    await refreshPending();
    setState({ liveVersion: getState().liveVersion + 1 });
  }
}

/**
 * What an add queued offline was, saved for its barcode's next scan, as an add online does: the
 * code could not be looked up offline, so the name was typed without seeing what the household
 * calls the product, and a name the household already remembers is kept rather than replaced.
 * A failure here leaves the item added and says the code was not saved.
 */
async function rememberQueuedBarcode(item: Item): Promise<void> {
  if (!item.barcode) return;
  try {
    const known = await api.barcode(item.householdId, item.barcode).catch((failure: unknown) => {
      if (failure instanceof ApiError && failure.status === 404) return null;
      throw failure;
    });
    if (known?.source === "household") return;
    await api.rememberBarcode(item.householdId, item.barcode, {
      name: item.name,
      unit: item.unit,
      categoryId: item.categoryId,
    });
  } catch (failure) {
    noteFailure(failure);
    announce(t("barcode.notRemembered"));
  }
}

export async function dismissWrite(id: number): Promise<void> {
  await removeWrite(id);
  await refreshPending();
}

export { refreshPending };

let checkingMembership = false;

/**
 * Households this user is deleting or leaving (false) or has deleted or left (true): the end of
 * their membership is no news to them.
 */
const departing = new Map<string, boolean>();

/**
 * Runs the user's own delete or leave of a household: while it runs and after it succeeded, the
 * membership that ends with it (the event stream's `membership.ended`, a 403 on a request still
 * in flight) does not replace the app's own notice with "you were removed".
 */
export async function departFrom<T>(householdId: string, action: () => Promise<T>): Promise<T> {
  departing.set(householdId, false);
  try {
    const done = await action();
    departing.set(householdId, true);
    return done;
  } catch (error) {
    departing.delete(householdId);
    throw error;
  }
}

/**
 * The API said the user is no longer a member of the open household (the owner removed them,
 * or deleted it): reload the list, say what happened, and show another household if there is one.
 */
export async function membershipLost(householdId = getState().householdId): Promise<void> {
  if (checkingMembership || !householdId || departing.has(householdId)) return;
  checkingMembership = true;
  try {
    const lost = getState().households.find((household) => household.id === householdId);
    const households = await api.households();
    if (households.some((household) => household.id === householdId)) return;
    if (getState().householdId === householdId) setState({ householdId: null });
    await loadHouseholds().catch(() => undefined);
    const now = currentHousehold();
    const name = lost?.name ?? "";
    setState({ notice: now ? t("household.lostSwitched", { name, other: now.name }) : t("household.lost", { name }) });
    if (location.pathname.startsWith("/items/")) navigate("/", true);
  } catch {
    // The check itself failed (offline): the error next to the action still says what went wrong.
  } finally {
    checkingMembership = false;
  }
}
