import { expect } from "chai";
import type { RememberedBarcode } from "../../../src/domain/inventory/barcode.js";
import type { BarcodeRepository } from "../../../src/ports/barcode-repository.js";
import type { ItemWorld } from "../../support/item-fixtures.js";

export interface BarcodeRepositoryHarness {
  repository: BarcodeRepository;
  world: ItemWorld;
  /** Deletes a household the way its adapter family does (cascade). */
  deleteHousehold(householdId: string): Promise<void>;
}

/** The behaviour every BarcodeRepository adapter shares, over a seeded world of two households. */
export function describeBarcodeRepositoryContract(label: string, setup: () => Promise<BarcodeRepositoryHarness>): void {
  describe(`BarcodeRepository contract: ${label}`, () => {
    let harness: BarcodeRepositoryHarness;
    const at = new Date("2026-11-26T10:00:00.000Z");
    const entry = (overrides: Partial<RememberedBarcode> = {}): RememberedBarcode => ({
      householdId: harness.world.home.householdId,
      code: "4006381333931",
      name: "Fish fingers",
      unit: "piece",
      categoryId: null,
      updatedAt: at,
      ...overrides,
    });

    beforeEach(async () => {
      harness = await setup();
    });

    it("finds nothing for a code the household never saved", async () => {
      expect(await harness.repository.find(harness.world.home.householdId, "4006381333931")).to.equal(null);
    });

    it("remembers a code per household and gives back what it stored", async () => {
      const saved = await harness.repository.save(entry({ categoryId: "cmeatcategory1" }));
      expect(saved).to.deep.equal(entry({ categoryId: "cmeatcategory1" }));
      expect(await harness.repository.find(harness.world.home.householdId, "4006381333931")).to.deep.equal(saved);
      // Another household scanning the same product knows nothing of it.
      expect(await harness.repository.find(harness.world.away.householdId, "4006381333931")).to.equal(null);
    });

    it("replaces what it remembered, nulls included", async () => {
      await harness.repository.save(entry({ unit: "g", categoryId: "cmeatcategory1" }));
      const later = new Date(at.getTime() + 60_000);
      await harness.repository.save(entry({ name: "Fischstäbchen", unit: null, categoryId: null, updatedAt: later }));
      expect(await harness.repository.find(harness.world.home.householdId, "4006381333931")).to.deep.equal(
        entry({ name: "Fischstäbchen", unit: null, categoryId: null, updatedAt: later }),
      );
    });

    it("lists a household's codes in byte order, a page after a code", async () => {
      for (const code of ["96385074", "4006381333931", "SHOP-17", "abc"])
        await harness.repository.save(entry({ code }));
      await harness.repository.save(entry({ householdId: harness.world.away.householdId, code: "12345670" }));
      const codes = async (after: string | null, limit: number) =>
        (await harness.repository.listAfter(harness.world.home.householdId, after, limit)).map((row) => row.code);
      expect(await codes(null, 10)).to.deep.equal(["4006381333931", "96385074", "SHOP-17", "abc"]);
      expect(await codes(null, 2)).to.deep.equal(["4006381333931", "96385074"]);
      expect(await codes("96385074", 10)).to.deep.equal(["SHOP-17", "abc"]);
    });

    it("forgets a deleted household's codes", async () => {
      await harness.repository.save(entry());
      await harness.deleteHousehold(harness.world.home.householdId);
      expect(await harness.repository.find(harness.world.home.householdId, "4006381333931")).to.equal(null);
    });
  });
}
