/**
 * Item photos in the app. The API wants the access token on every request, which an
 * `<img src>` cannot send, so images are fetched with it and shown from blob: URLs. Their URLs
 * name the photo's version and the server marks them immutable, so the browser's HTTP cache
 * answers a second fetch of the same URL without asking the server again.
 */
import { ApiError, currentAccessToken, type Item, refreshSession } from "./api.js";

const BASE = "/api/v1";
/** Decoded photos kept as blob: URLs; the oldest is released beyond this. */
const KEPT_PHOTOS = 120;
const kept = new Map<string, Promise<string>>();

async function fetchImage(url: string): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = currentAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(url, { headers, credentials: "same-origin" });
}

/** A blob: URL showing the photo at `url` (an item's `thumbUrl` or `url`). */
export function photoObjectUrl(url: string): Promise<string> {
  const known = kept.get(url);
  if (known) {
    // Recently used goes to the back of the queue.
    kept.delete(url);
    kept.set(url, known);
    return known;
  }
  const loading = (async () => {
    let response = await fetchImage(url);
    if (response.status === 401 && (await refreshSession().catch(() => false))) response = await fetchImage(url);
    if (!response.ok) throw new ApiError(response.status, response.statusText);
    return URL.createObjectURL(await response.blob());
  })();
  loading.catch(() => kept.delete(url));
  kept.set(url, loading);
  while (kept.size > KEPT_PHOTOS) {
    const [oldest, entry] = kept.entries().next().value as [string, Promise<string>];
    kept.delete(oldest);
    void entry.then((objectUrl) => URL.revokeObjectURL(objectUrl)).catch(() => undefined);
  }
  return loading;
}

/** What an upload answered: the status and the body's text. */
interface Answer {
  status: number;
  text: string;
}

function put(path: string, file: Blob, onProgress: (fraction: number) => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", `${BASE}${path}`);
    const token = currentAccessToken();
    if (token) request.setRequestHeader("Authorization", `Bearer ${token}`);
    // The server reads what the bytes are; the header only has to be one of the image types.
    request.setRequestHeader(
      "Content-Type",
      /^image\/(jpeg|png|webp|heic|heif|avif)$/.test(file.type) ? file.type : "image/jpeg",
    );
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => resolve({ status: request.status, text: request.responseText });
    request.onerror = () => reject(new ApiError(0, "offline"));
    request.ontimeout = () => reject(new ApiError(0, "offline"));
    request.send(file);
  });
}

function failure(answer: Answer): ApiError {
  let message = "";
  try {
    const body = JSON.parse(answer.text) as { message?: unknown };
    if (typeof body.message === "string") message = body.message;
  } catch {
    // A proxy's page: the status says enough.
  }
  return new ApiError(answer.status, message);
}

/** Sends `file` as the item's photo, reporting how much of it went out (0 to 1). */
export async function uploadPhoto(
  householdId: string,
  itemId: string,
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<Item> {
  // A photo is never queued for later: the user is told to try again with a connection.
  if (navigator.onLine === false) throw new ApiError(0, "offline");
  const path = `/households/${householdId}/items/${itemId}/photo`;
  let answer = await put(path, file, onProgress);
  if (answer.status === 401 && (await refreshSession().catch(() => false))) answer = await put(path, file, onProgress);
  if (answer.status < 200 || answer.status >= 300) throw failure(answer);
  return JSON.parse(answer.text) as Item;
}

/** What a photo change leaves alone: the fields an item's edit and move forms send. */
const FORM_FIELDS = [
  "name",
  "quantity",
  "unit",
  "categoryId",
  "notes",
  "storedAt",
  "expiresAt",
  "barcode",
  "freezerId",
  "compartmentId",
  "deletedAt",
] as const satisfies readonly (keyof Item)[];

/**
 * The version an edit form filled from `base` may save on after the user's own photo change
 * answered `changed`: `changed`'s, when the photo is all that differs (a save after taking a
 * photo is no conflict), else `base` itself, so someone else's change is still caught.
 */
export function versionPastOwnPhoto(base: Item, changed: Item): Item {
  if (changed.id !== base.id || FORM_FIELDS.some((field) => changed[field] !== base[field])) return base;
  return { ...base, photo: changed.photo ?? null, updatedAt: changed.updatedAt };
}

/** Removes the item's photo. */
export async function removePhoto(householdId: string, itemId: string): Promise<Item> {
  if (navigator.onLine === false) throw new ApiError(0, "offline");
  const send = () => {
    const headers: Record<string, string> = { Accept: "application/json" };
    const token = currentAccessToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    return fetch(`${BASE}/households/${householdId}/items/${itemId}/photo`, {
      method: "DELETE",
      headers,
      credentials: "same-origin",
    }).catch(() => {
      throw new ApiError(0, "offline");
    });
  };
  let response = await send();
  if (response.status === 401 && (await refreshSession().catch(() => false))) response = await send();
  const answer = { status: response.status, text: await response.text() };
  if (!response.ok) throw failure(answer);
  return JSON.parse(answer.text) as Item;
}
