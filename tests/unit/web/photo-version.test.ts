import { expect } from "chai";
import type { Item } from "../../../web/src/api.js";
import { versionPastOwnPhoto } from "../../../web/src/photos.js";

const user = { id: "u1", email: "anna@example.com", name: "Anna" };
const base: Item = {
  id: "i1",
  householdId: "h1",
  freezerId: "f1",
  compartmentId: "c1",
  name: "Lasagne",
  quantity: 1,
  unit: "piece",
  categoryId: null,
  notes: null,
  storedAt: null,
  expiresAt: "2026-12-24",
  barcode: null,
  deletedAt: null,
  createdAt: "2026-11-01T10:00:00.000Z",
  updatedAt: "2026-11-01T10:00:00.000Z",
  createdBy: user,
  updatedBy: user,
  photo: null,
};
const photo = { thumbUrl: "/t", url: "/u", updatedAt: "2026-11-02T10:00:00.000Z" };

describe("web app: the edit form's version after the user's own photo change", () => {
  it("moves past the photo when the photo is all that changed", () => {
    const changed = { ...base, photo, updatedAt: "2026-11-02T10:00:00.000Z" };
    const next = versionPastOwnPhoto(base, changed);
    expect(next.updatedAt).to.equal(changed.updatedAt);
    expect(next.photo).to.deep.equal(photo);
  });

  it("stays put when someone else changed a field meanwhile, so their change is still caught", () => {
    const changed = { ...base, name: "Ben's lasagne", photo, updatedAt: "2026-11-02T10:00:00.000Z" };
    expect(versionPastOwnPhoto(base, changed)).to.equal(base);
  });
});
