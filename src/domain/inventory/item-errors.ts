import { DomainError, type ErrorDetail } from "../shared/domain-error.js";
import type { FreezerItemView } from "./freezer-item.js";

/** The item does not exist in this household (ids of other households are "not found" too). */
export class ItemNotFoundError extends DomainError {
  readonly code = "ITEM_NOT_FOUND";
  constructor() {
    super("Item not found");
  }
}

/** An archived item cannot be edited or archived again; restore it first. */
export class ItemArchivedError extends DomainError {
  readonly code = "ITEM_ARCHIVED";
  constructor() {
    super("The item is archived; restore it before changing it");
  }
}

/** Archiving an item that is already in the archive: the next step is permanent deletion. */
export class ItemAlreadyArchivedError extends DomainError {
  readonly code = "ITEM_ALREADY_ARCHIVED";
  constructor() {
    super(
      "The item is already archived; the household owner can delete it for good with DELETE /households/:hid/items/:iid/permanent",
    );
  }
}

/** Permanent deletion is only allowed from the archive. */
export class ItemNotArchivedError extends DomainError {
  readonly code = "ITEM_NOT_ARCHIVED";
  constructor() {
    super("Archive the item before deleting it permanently");
  }
}

/** Restore only applies to archived items. */
export class ItemNotInArchiveError extends DomainError {
  readonly code = "ITEM_NOT_IN_ARCHIVE";
  constructor() {
    super("The item is not archived, so there is nothing to restore");
  }
}

/** freezerId is not a freezer of the household, or compartmentId not a compartment of that freezer. */
export class InvalidItemPlacementError extends DomainError {
  readonly code = "INVALID_ITEM_PLACEMENT";
  constructor(details: ErrorDetail[]) {
    super("The freezer or compartment does not exist in this household", details);
  }
}

/** Consuming more than the item holds. */
export class NotEnoughLeftError extends DomainError {
  readonly code = "NOT_ENOUGH_LEFT";
  constructor(
    readonly remaining: number,
    unit?: string,
  ) {
    // Pieces read as before ("Only 2 left"); other units name themselves ("Only 0.75 kg left").
    const amount = unit && unit !== "piece" ? `${remaining} ${unit}` : `${remaining}`;
    super(`Only ${amount} left of this item`, [{ path: "quantity", message: `must be at most ${amount}` }]);
  }
}

/** A used-up item (quantity 0) cannot come back from the archive as it is. */
export class ItemUsedUpError extends DomainError {
  readonly code = "ITEM_USED_UP";
  constructor() {
    super("The item was used up (quantity 0); create a new item instead of restoring it");
  }
}

/**
 * An edit named the version of the item it was made on (If-Match), and the item has changed
 * since: nothing was written. `current` is the item as it is now, when it could be read.
 */
export class ItemChangedError extends DomainError {
  readonly code = "ITEM_CHANGED";
  constructor(readonly current?: FreezerItemView) {
    super("The item was changed by someone else since you loaded it; nothing was saved");
  }
}
