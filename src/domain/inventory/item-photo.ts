import type { ChangeLogEntry } from "./change-log-entry.js";
import { type FreezerItem, type ItemUpdate, nextChangeTime } from "./freezer-item.js";
import { DomainError } from "../shared/domain-error.js";

/** The two renditions the server keeps of a photo: a list thumbnail and the item page's size. */
export const PHOTO_SIZES = ["thumb", "display"] as const;
export type PhotoSize = (typeof PHOTO_SIZES)[number];

/** The change-log field of photo changes; its values are the photo's version (ISO time) or null. */
export const PHOTO_FIELD = "photo";

/** A photo's two renditions, as the image pipeline made them (metadata stripped). */
export interface PhotoImages {
  /** The MIME type of both renditions. */
  contentType: string;
  thumb: Uint8Array;
  display: Uint8Array;
}

/** One rendition as a member reads it. */
export interface StoredPhoto {
  contentType: string;
  image: Uint8Array;
  /** The photo's version: when it was set. */
  updatedAt: Date;
}

/**
 * Sets (`photo: true`) or removes an item's photo: the item's photo version, updatedAt and
 * updatedBy move on and the change log gets one `photo` entry (old and new version). Removing
 * a photo the item does not have changes nothing.
 */
export function applyPhotoChange(
  current: FreezerItem,
  photo: boolean,
  change: { by: string; now: Date; newId: () => string },
): ItemUpdate {
  const before = current.photoUpdatedAt ?? null;
  if (!photo && before === null) return { item: current, changes: [] };
  const changedAt = nextChangeTime(change.now, current);
  const after = photo ? changedAt : null;
  const entry: ChangeLogEntry = {
    id: change.newId(),
    itemId: current.id,
    fieldName: PHOTO_FIELD,
    oldValue: before?.toISOString() ?? null,
    newValue: after?.toISOString() ?? null,
    changedAt,
    changedById: change.by,
  };
  return {
    item: { ...current, photoUpdatedAt: after, updatedAt: changedAt, updatedById: change.by },
    changes: [entry],
  };
}

/** The file is not an image the server can read (or not one of the accepted formats). */
export class UnsupportedImageError extends DomainError {
  readonly code = "UNSUPPORTED_IMAGE";
  constructor(reason: string) {
    super(`The photo cannot be read: ${reason}. Send a JPEG, PNG or WebP image`);
  }
}

/** The photo is larger than the configured limit (bytes or pixels). */
export class PhotoTooLargeError extends DomainError {
  readonly code = "PHOTO_TOO_LARGE";
  constructor(reason: string) {
    super(`The photo is too large: ${reason}`);
  }
}

/** The image library cannot be loaded here (a missing or foreign native binary): the server's fault, not the photo's. */
export class PhotoProcessingUnavailableError extends DomainError {
  readonly code = "PHOTO_PROCESSING_UNAVAILABLE";
  constructor(reason: string) {
    super(`Photos cannot be processed on this server: ${reason}`);
  }
}

/** The item has no photo. */
export class PhotoNotFoundError extends DomainError {
  readonly code = "PHOTO_NOT_FOUND";
  constructor() {
    super("The item has no photo");
  }
}
