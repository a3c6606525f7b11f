/**
 * The inventory API as the web app uses it. The access token lives only in this module's
 * memory; the refresh token is an HttpOnly cookie the browser sends to /api/v1/auth/web/*
 * alone, so a script on the page can never read it. A 401 triggers one silent refresh.
 */

export interface User {
  id: string;
  email: string;
  name: string;
  /** The installation role, on GET /users/me (admins see the House section). */
  role?: "admin" | "member";
}

export interface Household {
  id: string;
  name: string;
  ownerId: string;
  createdAt: string;
  /** The family's IANA time zone, on servers that keep one. */
  timeZone?: string;
}

export interface Member {
  id: string;
  userId: string;
  name: string;
  email: string;
  role: "OWNER" | "MEMBER";
  joinedAt: string;
}

export interface HouseholdDetail extends Household {
  members: Member[];
}

export interface Invite {
  id: string;
  householdId: string;
  code: string;
  expiresAt: string;
  createdAt: string;
}

export interface Compartment {
  id: string;
  freezerId: string;
  name: string;
  position: number;
}

export interface Freezer {
  id: string;
  householdId: string;
  name: string;
  description: string | null;
  position: number;
  createdAt: string;
}

export interface FreezerDetail extends Freezer {
  compartments: Compartment[];
}

/** The units a quantity is counted in (the server's fixed list). */
export const ITEM_UNITS = ["piece", "portion", "bag", "g", "kg", "ml", "l"] as const;
export type ItemUnit = (typeof ITEM_UNITS)[number];
/** Units counted in whole numbers (the server refuses fractions for them). */
export const WHOLE_NUMBER_UNITS: readonly ItemUnit[] = ["portion", "bag"];

/** A household's category; `key` names a default the app translates, null for the owner's own names. */
export interface Category {
  id: string;
  householdId: string;
  key: string | null;
  name: string;
  position: number;
}

export interface Item {
  id: string;
  householdId: string;
  freezerId: string;
  compartmentId: string;
  name: string;
  quantity: number;
  unit: ItemUnit;
  categoryId: string | null;
  notes: string | null;
  storedAt: string | null;
  expiresAt: string | null;
  /** The product's barcode (EAN-13 form for a UPC-A), or null. */
  barcode: string | null;
  deletedAt: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: User;
  updatedBy: User;
  /** The item's photo (absent on servers from before photos). */
  photo?: ItemPhoto | null;
}

/** Where an item's photo is served; both URLs name its version, so what they answer never changes. */
export interface ItemPhoto {
  thumbUrl: string;
  url: string;
  updatedAt: string;
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
}

export interface ChangeLogEntry {
  id: string;
  itemId: string;
  fieldName: string;
  oldValue: string | null;
  newValue: string | null;
  changedAt: string;
  changedBy: User;
}

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An answer of the API that is not a success, or no answer at all (status 0: offline). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Seconds to wait, from Retry-After on a 429. */
    readonly retryAfter: number | null = null,
    /** The API's stable error code (ITEM_CHANGED, NOT_HOUSEHOLD_MEMBER, …), where it sends one. */
    readonly code: string | null = null,
    /** The whole error body, for answers that carry data (a 412's current item). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

const BASE = "/api/v1";
const REQUEST_TIMEOUT_MS = 20_000;

let accessToken: string | null = null;
let refreshing: Promise<boolean> | null = null;
let onSignedOut: () => void = () => undefined;
let onNotMember: () => void = () => undefined;

/** Called when the API says the user is not (any more) a member of the household asked about. */
export function whenNotMember(listener: () => void): void {
  onNotMember = listener;
}

/** Called when the session ends without the user asking (refresh refused). */
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

function send(
  method: string,
  path: string,
  body?: unknown,
  cookieRoute = false,
  extra: Record<string, string> = {},
): Promise<Response> {
  return sendTo(`${BASE}${path}`, method, body, cookieRoute, extra);
}

async function sendTo(
  url: string,
  method: string,
  body?: unknown,
  cookieRoute = false,
  extra: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...extra };
  if (cookieRoute) headers["X-Hearth-Client"] = "web";
  else if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  // A browser that knows it is offline gets the offline answer at once, not after a timeout.
  if (navigator.onLine === false) throw new ApiError(0, "offline");
  return fetchJson(url, method, body, headers);
}

/**
 * One JSON request to Hearth (same origin, cookies included, never from the HTTP cache), with
 * `body` as JSON; a server that cannot be reached, or does not answer in time, is ApiError 0
 * "offline". The family app's requests and the engine console's go through it.
 */
export async function fetchJson(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  try {
    return await fetch(url, {
      method,
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: "same-origin",
      cache: "no-store",
      // A phone on a dying Wi-Fi can leave a request hanging for minutes; treat that as offline.
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    throw new ApiError(0, "offline");
  }
}

/** The ApiError of an answer that is not a success (its body's message, details and code). */
export async function failure(response: Response): Promise<ApiError> {
  let message = response.statusText;
  let details: ErrorDetail[] = [];
  let body: unknown = null;
  try {
    body = await response.json();
    const fields = body as { message?: unknown; details?: unknown };
    if (typeof fields.message === "string") message = fields.message;
    if (Array.isArray(fields.details)) details = fields.details as ErrorDetail[];
  } catch {
    // Not JSON (a proxy's error page): the status alone tells the user enough.
  }
  // The server names the code in a header: the body keeps its documented fields, which hold none.
  const code = response.headers.get("Hearth-Error-Code");
  const retry = Number(response.headers.get("Retry-After"));
  return new ApiError(
    response.status,
    message,
    details,
    Number.isFinite(retry) && retry > 0 ? retry : null,
    code,
    body,
  );
}

async function parse<T>(response: Response): Promise<T> {
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/**
 * Tabs of the app share one refresh: a refresh token is single-use, so two tabs (or the installed
 * app and a tab) refreshing at once would race, and the loser could sign the family out. A Web
 * Lock serialises the refresh across tabs; the winner posts the new access token on a
 * BroadcastChannel, and a tab that waited for the lock takes that token instead of refreshing again.
 */
const REFRESH_LOCK = "hearth-refresh";
/** When a tab last refreshed (a time only, never a token): read inside the lock, synchronously. */
const REFRESHED_AT = "hearth.refreshedAt";
/** How long a tab that saw another's refresh waits for its token to arrive on the channel. */
const SHARED_WAIT_MS = 3000;
const sessionChannel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("hearth-session");
let sharedSession: { accessToken: string; user: User; refreshedAt: number } | null = null;
let sharedArrived: () => void = () => undefined;
sessionChannel?.addEventListener("message", (event: MessageEvent) => {
  const message = event.data as { type?: string; accessToken?: string; user?: User; refreshedAt?: number } | null;
  if (message?.type === "refreshed" && message.accessToken && message.user && message.refreshedAt) {
    sharedSession = { accessToken: message.accessToken, user: message.user, refreshedAt: message.refreshedAt };
    sharedArrived();
  } else if (message?.type === "signed-out") {
    // Another tab signed this browser out. The access token in this tab's memory would stay valid
    // on the server until it expires, so a family tablet's other tabs would go on showing and
    // changing the household: this tab forgets it and shows the sign-in screen as well.
    accessToken = null;
    currentUser = null;
    sharedSession = null;
    onSignedOut();
  }
});

function refreshedAt(): number {
  try {
    return Number(localStorage.getItem(REFRESHED_AT)) || 0;
  } catch {
    return 0;
  }
}

/** The session another tab refreshed after `startedAt`, if it did; waits briefly for its message. */
async function sharedSince(startedAt: number): Promise<boolean> {
  if (refreshedAt() < startedAt) return false;
  if (!sharedSession || sharedSession.refreshedAt < startedAt) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SHARED_WAIT_MS);
      sharedArrived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  if (!sharedSession || sharedSession.refreshedAt < startedAt) return false;
  accessToken = sharedSession.accessToken;
  currentUser = sharedSession.user;
  return true;
}

/**
 * Set while this browser was signed out but the server could not be told (offline): its refresh
 * cookie is still a live session there. Until the server has ended it, the app does not resume
 * the session from the cookie, and tells the server as soon as it can. Outside the "hearth."
 * keys, which signing out forgets.
 */
const SIGN_OUT_PENDING = "hearth-session.signOutPending";

function signOutPending(): boolean {
  try {
    return localStorage.getItem(SIGN_OUT_PENDING) !== null;
  } catch {
    return false;
  }
}

function setSignOutPending(pending: boolean): void {
  try {
    if (pending) localStorage.setItem(SIGN_OUT_PENDING, "1");
    else localStorage.removeItem(SIGN_OUT_PENDING);
  } catch {
    // Without storage a reload resumes the session: the sign-out then says it did not reach the server.
  }
}

/** Ends on the server a session this browser signed out of while offline; false while still unreachable. */
export async function finishPendingSignOut(): Promise<boolean> {
  if (!signOutPending()) return true;
  try {
    await parse(await send("POST", "/auth/web/logout", undefined, true));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 0 || error.status >= 500 || error.status === 429)) return false;
    // Any other answer: the server has no session for this cookie (anymore).
  }
  setSignOutPending(false);
  return true;
}

async function refreshOnce(startedAt: number): Promise<boolean> {
  // Signed out while offline: the cookie's session is not resumed, whether or not the server has
  // been told by now.
  if (signOutPending()) {
    await finishPendingSignOut();
    return false;
  }
  // Another tab refreshed while this one waited for the lock: its session is ours too.
  if (await sharedSince(startedAt)) return true;
  try {
    const session = await parse<{ accessToken: string; user: User }>(
      await send("POST", "/auth/web/refresh", undefined, true),
    );
    accessToken = session.accessToken;
    currentUser = session.user;
    const now = Date.now();
    sessionChannel?.postMessage({
      type: "refreshed",
      accessToken: session.accessToken,
      user: session.user,
      refreshedAt: now,
    });
    try {
      localStorage.setItem(REFRESHED_AT, String(now));
    } catch {
      // Without storage the other tabs refresh on their own, one after another under the lock.
    }
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) accessToken = null;
    if (error instanceof ApiError && (error.status === 0 || error.status >= 500 || error.status === 429)) throw error;
    return false;
  }
}

/** Gets a new access token from the refresh cookie; false when there is no session. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const startedAt = Date.now();
    try {
      const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
      return locks ? await locks.request(REFRESH_LOCK, () => refreshOnce(startedAt)) : await refreshOnce(startedAt);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

let currentUser: User | null = null;

/** The user the last sign-in or refresh named. */
export function sessionUser(): User | null {
  return currentUser;
}

function request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  return requestAt<T>(`${BASE}${path}`, method, body, headers);
}

/**
 * A request to `url` as the signed-in account (its token, one silent refresh on a 401), for
 * routes named by their whole path: the engine's debug API under /api/v1/house.
 */
export async function requestAt<T>(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  let response = await sendTo(url, method, body, false, headers);
  if (response.status === 401 && (await refreshSession().catch(() => false)))
    response = await sendTo(url, method, body, false, headers);
  if (response.status === 401) {
    accessToken = null;
    currentUser = null;
    onSignedOut();
  }
  if (!response.ok) {
    const error = await failure(response);
    if (error.code === "NOT_HOUSEHOLD_MEMBER") onNotMember();
    throw error;
  }
  return parse<T>(response);
}

function query(params: Record<string, string | number | string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === "") continue;
    if (Array.isArray(value)) for (const entry of value) search.append(`${key}[]`, entry);
    else search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

export interface ItemQuery {
  search?: string;
  freezerId?: string;
  compartmentIds?: string[];
  expiresBefore?: string;
  /** A category id, or "none" for uncategorised items. */
  categoryId?: string;
  sort?: "createdAt" | "name" | "expiresAt" | "storedAt" | "quantity";
  order?: "asc" | "desc";
  page?: number;
  limit?: number;
}

export type ItemFields = Partial<
  Pick<
    Item,
    "name" | "quantity" | "freezerId" | "compartmentId" | "notes" | "storedAt" | "expiresAt" | "unit" | "categoryId"
  >
> &
  Partial<Pick<Item, "barcode">>;

/** What the household remembers about a barcode (or what the product lookup found). */
export interface RememberedBarcode {
  code: string;
  name: string;
  unit: ItemUnit | null;
  categoryId: string | null;
  source: "household" | "lookup";
  updatedAt: string | null;
}

async function startSession(path: string, body: unknown): Promise<User> {
  // The session this browser left while offline ends before a new one starts; the new cookie
  // would otherwise replace it unended.
  await finishPendingSignOut();
  const session = await parse<{ accessToken: string; user: User }>(await send("POST", path, body, true));
  // The new cookie replaced the old one: the note must not end the new session at the next start.
  setSignOutPending(false);
  accessToken = session.accessToken;
  currentUser = session.user;
  return session.user;
}

/** The access token for the live event stream (read with fetch, which can send it). */
export function currentAccessToken(): string | null {
  return accessToken;
}

export const api = {
  register: (body: { email: string; password: string; name: string }) => startSession("/auth/web/register", body),
  login: (body: { email: string; password: string }) => startSession("/auth/web/login", body),
  /**
   * Signs this browser out: this tab and, over the session channel, every other tab of the app.
   * Offline, the browser is signed out all the same and the server is told once it can be
   * (`signOutPending` says so meanwhile).
   */
  async logout(): Promise<void> {
    try {
      await parse(await send("POST", "/auth/web/logout", undefined, true));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 0)) throw error;
      setSignOutPending(true);
    } finally {
      accessToken = null;
      currentUser = null;
    }
    sessionChannel?.postMessage({ type: "signed-out" });
  },
  /** Whether this browser was signed out while offline and the server has not been told yet. */
  signOutPending,
  async logoutEverywhere(): Promise<void> {
    await request("POST", "/auth/logout-all");
    await api.logout();
  },
  me: () => request<User>("GET", "/users/me"),
  updateMe: (body: { name?: string; email?: string }) => request<User>("PATCH", "/users/me", body),
  changePassword: (body: { currentPassword: string; newPassword: string }) =>
    request("POST", "/users/me/password", body),
  deleteMe: () => request("DELETE", "/users/me"),

  households: () => request<Household[]>("GET", "/households"),
  createHousehold: (name: string, timeZone?: string) =>
    request<Household>("POST", "/households", { name, ...(timeZone ? { timeZone } : {}) }).catch((error: unknown) => {
      // A server from before households had a time zone refuses the unknown field: create without it.
      if (
        timeZone &&
        error instanceof ApiError &&
        error.status === 400 &&
        error.details.some((d) => d.path === "" || d.path === "timeZone")
      )
        return request<Household>("POST", "/households", { name });
      throw error;
    }),
  household: (hid: string) => request<HouseholdDetail>("GET", `/households/${hid}`),
  deleteHousehold: (hid: string) => request("DELETE", `/households/${hid}`),
  renameHousehold: (hid: string, name: string) => request<Household>("PATCH", `/households/${hid}`, { name }),
  removeMember: (hid: string, uid: string) => request("DELETE", `/households/${hid}/members/${uid}`),
  leave: (hid: string) => request("POST", `/households/${hid}/leave`),
  transfer: (hid: string, newOwnerId: string) =>
    request<Household>("PATCH", `/households/${hid}/transfer`, { newOwnerId }),
  invites: (hid: string) => request<Invite[]>("GET", `/households/${hid}/invites`),
  createInvite: (hid: string) => request<Invite>("POST", `/households/${hid}/invites`),
  revokeInvite: (hid: string, id: string) => request("DELETE", `/households/${hid}/invites/${id}`),
  acceptInvite: (code: string) => request<Household>("POST", "/invites/accept", { code }),

  freezers: (hid: string) => request<Freezer[]>("GET", `/households/${hid}/freezers`),
  freezer: (hid: string, fid: string) => request<FreezerDetail>("GET", `/households/${hid}/freezers/${fid}`),
  createFreezer: (hid: string, name: string) => request<Freezer>("POST", `/households/${hid}/freezers`, { name }),
  renameFreezer: (hid: string, fid: string, name: string) =>
    request<Freezer>("PATCH", `/households/${hid}/freezers/${fid}`, { name }),
  moveFreezer: (hid: string, fid: string, position: number) =>
    request<Freezer>("PATCH", `/households/${hid}/freezers/${fid}`, { position }),
  deleteFreezer: (hid: string, fid: string) => request("DELETE", `/households/${hid}/freezers/${fid}`),
  createCompartment: (hid: string, fid: string, name: string, position: number) =>
    request<Compartment>("POST", `/households/${hid}/freezers/${fid}/compartments`, { name, position }),
  updateCompartment: (hid: string, fid: string, cid: string, body: { name?: string; position?: number }) =>
    request<Compartment>("PATCH", `/households/${hid}/freezers/${fid}/compartments/${cid}`, body),
  deleteCompartment: (hid: string, fid: string, cid: string) =>
    request("DELETE", `/households/${hid}/freezers/${fid}/compartments/${cid}`),

  items: (hid: string, q: ItemQuery) => request<Page<Item>>("GET", `/households/${hid}/items${query({ ...q })}`),
  item: (hid: string, iid: string) => request<Item>("GET", `/households/${hid}/items/${iid}`),
  createItem: (hid: string, body: ItemFields) => request<Item>("POST", `/households/${hid}/items`, body),
  /**
   * `version` is the item's updatedAt as the form loaded it: the server answers 412
   * (ITEM_CHANGED, with the current item) instead of overwriting someone else's change.
   */
  updateItem: (hid: string, iid: string, body: ItemFields, version?: string) =>
    request<Item>("PATCH", `/households/${hid}/items/${iid}`, body, version ? { "If-Match": `"${version}"` } : {}),
  consumeItem: (hid: string, iid: string, quantity: number, unit?: ItemUnit) =>
    request<Item>("POST", `/households/${hid}/items/${iid}/consume`, unit ? { quantity, unit } : { quantity }),
  categories: (hid: string) => request<Category[]>("GET", `/households/${hid}/categories`),
  createCategory: (hid: string, name: string) => request<Category>("POST", `/households/${hid}/categories`, { name }),
  renameCategory: (hid: string, cid: string, name: string) =>
    request<Category>("PATCH", `/households/${hid}/categories/${cid}`, { name }),
  deleteCategory: (hid: string, cid: string) => request("DELETE", `/households/${hid}/categories/${cid}`),
  archiveItem: (hid: string, iid: string) => request("DELETE", `/households/${hid}/items/${iid}`),
  restoreItem: (hid: string, iid: string) => request<Item>("POST", `/households/${hid}/items/${iid}/restore`),
  deleteItem: (hid: string, iid: string) => request("DELETE", `/households/${hid}/items/${iid}/permanent`),
  archive: (hid: string) => request<Item[]>("GET", `/households/${hid}/items/archive`),
  searchArchive: (hid: string, search: string, limit: number) =>
    request<Page<Item>>("GET", `/households/${hid}/items/archive${query({ search, limit, page: 1 })}`),
  history: (hid: string, iid: string) => request<ChangeLogEntry[]>("GET", `/households/${hid}/items/${iid}/history`),
  /** 404 (BARCODE_NOT_FOUND) for a code neither the household nor the product lookup knows. */
  barcode: (hid: string, code: string) =>
    request<RememberedBarcode>("GET", `/households/${hid}/barcodes/${encodeURIComponent(code)}`),
  rememberBarcode: (
    hid: string,
    code: string,
    body: { name: string; unit?: string | null; categoryId?: string | null },
  ) => request<RememberedBarcode>("PUT", `/households/${hid}/barcodes/${encodeURIComponent(code)}`, body),

  shoppingList: (hid: string) => request<ShoppingListEntry[]>("GET", `/households/${hid}/shopping-list`),
  addShoppingListEntry: (hid: string, body: ShoppingListAddition) =>
    request<ShoppingListEntry>("POST", `/households/${hid}/shopping-list`, body),
  updateShoppingListEntry: (hid: string, eid: string, body: Partial<Omit<ShoppingListAddition, "fromItemId">>) =>
    request<ShoppingListEntry>("PATCH", `/households/${hid}/shopping-list/${eid}`, body),
  removeShoppingListEntry: (hid: string, eid: string) => request("DELETE", `/households/${hid}/shopping-list/${eid}`),
  stockCheckedEntries: (hid: string, body: { freezerId: string; compartmentId: string; expiresAt?: string | null }) =>
    request<{ itemsCreated: number }>("POST", `/households/${hid}/shopping-list/checked/stock`, body),
  pushPublicKey: () => request<{ publicKey: string }>("GET", "/push/public-key"),
  subscribePush: (subscription: PushSubscriptionJSON, language: string) =>
    request<{ endpoint: string }>("POST", "/users/me/push-subscriptions", {
      endpoint: subscription.endpoint,
      keys: subscription.keys,
      language,
    }),
  unsubscribePush: (endpoint: string) => request("DELETE", "/users/me/push-subscriptions", { endpoint }),
  memberReminder: (hid: string) => request<MemberReminder>("GET", `/households/${hid}/push-reminders`),
  updateMemberReminder: (hid: string, body: Partial<Pick<MemberReminder, "enabled" | "timeOfDay" | "daysAhead">>) =>
    request<MemberReminder>("PUT", `/households/${hid}/push-reminders`, body),
  exportHousehold: (hid: string, format: "json" | "csv") => download(`/households/${hid}/export?format=${format}`),
  /** Imports (or with `dryRun`, previews) a household file as its own content type: the body is the file. */
  importHousehold: (hid: string, file: Blob, format: "json" | "csv", dryRun: boolean) =>
    upload<ImportSummary>(`/households/${hid}/import?format=${format}${dryRun ? "&dryRun=true" : ""}`, file),
  // The House section (installation admins): the engine's routes and the admin list.
  adminUsers: () =>
    request<{ accounts: Required<User>[]; total: number }>("GET", `/admin/users${query({ limit: 100 })}`),
  grantAdmin: (uid: string) => request<Required<User>>("PUT", `/admin/admins/${uid}`),
  revokeAdmin: (uid: string) => request<Required<User>>("DELETE", `/admin/admins/${uid}`),
};

/** The units a shopping-list entry is counted in (the server's fixed list). */
export const SHOPPING_UNITS = ["piece", "portion", "bag", "g", "kg", "ml", "l"] as const;
export type ShoppingUnit = (typeof SHOPPING_UNITS)[number];

export interface ShoppingListEntry {
  id: string;
  householdId: string;
  name: string;
  quantity: number;
  unit: ShoppingUnit;
  categoryId: string | null;
  checked: boolean;
  /** 0 for the top of the list. */
  position: number;
  createdAt: string;
  updatedAt: string;
}

export interface ShoppingListAddition {
  name?: string;
  quantity?: number;
  unit?: ShoppingUnit;
  categoryId?: string | null;
  checked?: boolean;
  position?: number;
  /** Take the name from this item of the household (one just used up). */
  fromItemId?: string;
}

export interface MemberReminder {
  householdId: string;
  enabled: boolean;
  daysAhead: number;
  timeOfDay: string;
  lastSentOn: string | null;
  updatedAt: string;
}

export interface ImportSummary {
  freezersCreated: number;
  compartmentsCreated: number;
  categoriesCreated: number;
  itemsCreated: number;
  itemsUnchanged: number;
  barcodesRemembered: number;
  shoppingEntriesAdded: number;
}

/** A file body (an import) with the session's token, refreshed once on a 401 like every request. */
async function upload<T>(path: string, file: Blob): Promise<T> {
  const attempt = async () => {
    if (navigator.onLine === false) throw new ApiError(0, "offline");
    try {
      return await fetch(`${BASE}${path}`, {
        method: "POST",
        headers: {
          Accept: "application/json",
          "Content-Type": path.includes("format=csv") ? "text/csv" : "application/json",
          ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
        },
        body: file,
        credentials: "same-origin",
        cache: "no-store",
      });
    } catch {
      throw new ApiError(0, "offline");
    }
  };
  let response = await attempt();
  if (response.status === 401 && (await refreshSession().catch(() => false))) response = await attempt();
  if (!response.ok) throw await failure(response);
  return parse<T>(response);
}

/** A file answer (an export) as a Blob, with the name the server gives it. */
async function download(path: string): Promise<{ blob: Blob; name: string }> {
  let response = await send("GET", path);
  if (response.status === 401 && (await refreshSession().catch(() => false))) response = await send("GET", path);
  if (!response.ok) throw await failure(response);
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "household";
  return { blob: await response.blob(), name };
}
