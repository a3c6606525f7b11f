import { expect } from "chai";
import type { FreezerItem } from "../../../src/domain/inventory/freezer-item.js";
import { applyPhotoChange, type PhotoImages } from "../../../src/domain/inventory/item-photo.js";
import { ItemArchivedError } from "../../../src/domain/inventory/item-errors.js";
import type { ItemPhotoRepository } from "../../../src/ports/item-photo-repository.js";
import type { ItemRepository, MemberItem } from "../../../src/ports/item-repository.js";
import { type ItemWorld, itemIn } from "../../support/item-fixtures.js";

export interface ItemPhotoRepositoryHarness {
  items: ItemRepository;
  photos: ItemPhotoRepository;
  world: ItemWorld;
  /** How many stored photo rows the item has (0 or 1): what a cascade must leave behind. */
  storedPhotos(itemId: string): Promise<number>;
}

const images = (marker: number): PhotoImages => ({
  contentType: "image/jpeg",
  thumb: Uint8Array.from([0xff, 0xd8, marker, 1]),
  display: Uint8Array.from([0xff, 0xd8, marker, 2, 3, 4]),
});

let ids = 0;
const newId = () => `photochange${Date.now().toString(36)}${++ids}`;

/** The behaviour every ItemPhotoRepository adapter must share, over a seeded world per test. */
export function describeItemPhotoRepositoryContract(
  label: string,
  setup: () => Promise<ItemPhotoRepositoryHarness>,
): void {
  describe(`ItemPhotoRepository contract: ${label}`, () => {
    let h: ItemPhotoRepositoryHarness;
    beforeEach(async () => {
      h = await setup();
    });

    const ref = (item: FreezerItem, userId = h.world.users.bob.id): MemberItem => ({
      userId,
      householdId: item.householdId,
      itemId: item.id,
    });
    const change =
      (photo: boolean, now = new Date()) =>
      (current: FreezerItem) =>
        applyPhotoChange(current, photo, { by: h.world.users.bob.id, now, newId });
    const created = async (overrides: Partial<FreezerItem> = {}) => {
      const item = itemIn(h.world, { name: "Stew", ...overrides });
      await h.items.create(item);
      return item;
    };

    it("stores both renditions with the item's new photo version, its history entry and last updater", async () => {
      const item = await created();
      const at = new Date(Date.now() + 1000);
      const written = await h.photos.replaceForMember(ref(item), images(7), change(true, at));
      expect(written?.found?.photoUpdatedAt?.toISOString()).to.equal(at.toISOString());
      expect(written?.found?.updatedBy.id).to.equal(h.world.users.bob.id);
      const thumb = await h.photos.findForMember(ref(item), "thumb");
      const display = await h.photos.findForMember(ref(item, h.world.users.alice.id), "display");
      expect(Array.from(thumb?.found?.image ?? [])).to.deep.equal([0xff, 0xd8, 7, 1]);
      expect(Array.from(display?.found?.image ?? [])).to.deep.equal([0xff, 0xd8, 7, 2, 3, 4]);
      expect(display?.found?.contentType).to.equal("image/jpeg");
      expect(display?.found?.updatedAt.toISOString()).to.equal(at.toISOString());
      const found = await h.items.findById(item.householdId, item.id);
      expect(found?.photoUpdatedAt?.toISOString()).to.equal(at.toISOString());
      const listed = await h.items.list({ householdId: item.householdId, page: 1, limit: 100 });
      expect(listed.items.find((entry) => entry.id === item.id)?.photoUpdatedAt?.toISOString()).to.equal(
        at.toISOString(),
      );
      const history = await h.items.history(item.id);
      expect(history[0]).to.include({ fieldName: "photo", oldValue: null, newValue: at.toISOString() });
    });

    it("replaces a photo, and removes it with the item's version cleared", async () => {
      const item = await created();
      await h.photos.replaceForMember(ref(item), images(1), change(true));
      await h.photos.replaceForMember(ref(item), images(2), change(true));
      expect(Array.from((await h.photos.findForMember(ref(item), "thumb"))?.found?.image ?? [])).to.deep.equal([
        0xff, 0xd8, 2, 1,
      ]);
      const removed = await h.photos.replaceForMember(ref(item), null, change(false));
      expect(removed?.found?.photoUpdatedAt ?? null).to.equal(null);
      expect(await h.photos.findForMember(ref(item), "display")).to.deep.equal({ found: undefined });
      expect(await h.storedPhotos(item.id)).to.equal(0);
      const history = await h.items.history(item.id);
      expect(history.map((entry) => [entry.fieldName, entry.newValue === null])).to.deep.equal([
        ["photo", true],
        ["photo", false],
        ["photo", false],
      ]);
    });

    it("answers undefined to non-members and 'not found' for items of other households, writing nothing", async () => {
      const item = await created();
      const away = itemIn(h.world, {
        householdId: h.world.away.householdId,
        freezerId: h.world.away.freezerId,
        compartmentId: h.world.away.compartmentId,
        createdById: h.world.users.bob.id,
        updatedById: h.world.users.bob.id,
      });
      await h.items.create(away);
      // Alice is not a member of away.
      expect(await h.photos.replaceForMember(ref(away, h.world.users.alice.id), images(3), change(true))).to.equal(
        undefined,
      );
      expect(await h.photos.findForMember(ref(away, h.world.users.alice.id), "thumb")).to.equal(undefined);
      // Away's item addressed through home.
      const foreign = { userId: h.world.users.alice.id, householdId: h.world.home.householdId, itemId: away.id };
      expect(await h.photos.replaceForMember(foreign, images(3), change(true))).to.deep.equal({ found: undefined });
      expect(await h.photos.findForMember(foreign, "thumb")).to.deep.equal({ found: undefined });
      expect(await h.storedPhotos(away.id)).to.equal(0);
      // An item without a photo.
      expect(await h.photos.findForMember(ref(item), "thumb")).to.deep.equal({ found: undefined });
    });

    it("writes nothing when the updater refuses", async () => {
      const item = await created();
      await h.photos.replaceForMember(ref(item), images(4), change(true));
      const before = await h.items.findById(item.householdId, item.id);
      const refused = h.photos.replaceForMember(ref(item), images(5), () => {
        throw new ItemArchivedError();
      });
      expect(await refused.catch((error: unknown) => error)).to.be.instanceOf(ItemArchivedError);
      expect(JSON.stringify(await h.items.findById(item.householdId, item.id))).to.equal(JSON.stringify(before));
      expect(Array.from((await h.photos.findForMember(ref(item), "thumb"))?.found?.image ?? [])).to.deep.equal([
        0xff, 0xd8, 4, 1,
      ]);
    });

    it("a permanent delete takes the photo with the item", async () => {
      const item = await created();
      await h.photos.replaceForMember(ref(item), images(6), change(true));
      expect(await h.storedPhotos(item.id)).to.equal(1);
      expect(await h.items.deletePermanently(item.householdId, item.id, () => undefined)).to.equal(true);
      expect(await h.storedPhotos(item.id)).to.equal(0);
      expect(await h.photos.findForMember(ref(item), "thumb")).to.deep.equal({ found: undefined });
    });
  });
}
