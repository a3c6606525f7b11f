import { expect } from "chai";
import type { ChangeLogEntry } from "../../../src/domain/inventory/change-log-entry.js";
import type { FreezerItem } from "../../../src/domain/inventory/freezer-item.js";
import { ItemArchivedError } from "../../../src/domain/inventory/item-errors.js";
import type { ItemListQuery, ItemRepository, MemberItem } from "../../../src/ports/item-repository.js";
import { type ItemWorld, itemIn } from "../../support/item-fixtures.js";

/** The item `itemId` of `householdId`, as `userId` asks for it. */
const memberItem = (userId: string, householdId: string, itemId: string): MemberItem => ({
  userId,
  householdId,
  itemId,
});

export interface ItemRepositoryHarness {
  repository: ItemRepository;
  world: ItemWorld;
}

/**
 * The behaviour every ItemRepository adapter must share. `setup` gives a fresh repository
 * over a seeded world (two households, users, freezers, compartments) for each test.
 */
export function describeItemRepositoryContract(label: string, setup: () => Promise<ItemRepositoryHarness>): void {
  describe(`ItemRepository contract: ${label}`, () => {
    let repository: ItemRepository;
    let world: ItemWorld;

    beforeEach(async () => {
      ({ repository, world } = await setup());
    });

    const query = (overrides: Partial<ItemListQuery> = {}): ItemListQuery => ({
      householdId: world.home.householdId,
      page: 1,
      limit: 100,
      ...overrides,
    });
    /**
     * Every list read goes both ways, as the repository's own list and as a member's list
     * (which the API uses and which may read membership, revision, page and total in one
     * statement): the two must agree on every case below.
     */
    const list = async (listQuery: ItemListQuery) => {
      const page = await repository.list(listQuery);
      const asMember = await repository.listForMember(world.users.alice.id, listQuery);
      expect(JSON.stringify(asMember), "listForMember").to.equal(JSON.stringify(page));
      return page;
    };
    const names = async (overrides: Partial<ItemListQuery> = {}) =>
      (await list(query(overrides))).items.map((item) => item.name);
    /** The change log read both ways: by item id, and as a member of its household. */
    const history = async (item: FreezerItem) => {
      const entries = await repository.history(item.id);
      const asMember = await repository.historyForMember(memberItem(world.users.alice.id, item.householdId, item.id));
      expect(JSON.stringify(asMember?.found), "historyForMember").to.equal(JSON.stringify(entries));
      return entries;
    };
    /** An item of the away household (where Alice is not a member). */
    const awayPlacement = () => ({
      householdId: world.away.householdId,
      freezerId: world.away.freezerId,
      compartmentId: world.away.compartmentId,
    });
    const addAll = async (items: FreezerItem[]) => {
      for (const item of items) await repository.create(item);
    };

    describe("reads as a member", () => {
      it("finds an item, active or archived, for a member of its household and for nobody else", async () => {
        const item = itemIn(world, { name: "Peas" });
        const archived = itemIn(world, { name: "Old peas", deletedAt: new Date() });
        await addAll([item, archived]);
        const found = await repository.findForMember(memberItem(world.users.bob.id, world.home.householdId, item.id));
        expect(JSON.stringify(found?.found)).to.equal(
          JSON.stringify(await repository.findById(world.home.householdId, item.id)),
        );
        const old = await repository.findForMember(
          memberItem(world.users.alice.id, world.home.householdId, archived.id),
        );
        expect(old?.found?.name).to.equal("Old peas");
        // A member asking for an id of another household (or none) finds nothing; an outsider is told apart.
        expect(
          await repository.findForMember(memberItem(world.users.alice.id, world.home.householdId, "nothere")),
        ).to.deep.equal({
          found: undefined,
        });
        expect(
          await repository.findForMember(memberItem(world.users.alice.id, world.away.householdId, item.id)),
        ).to.equal(undefined);
        expect(await repository.findForMember(memberItem("nobody", world.home.householdId, item.id))).to.equal(
          undefined,
        );
      });

      it("reads an item's history for a member, empty when nothing changed, and for nobody else", async () => {
        const item = itemIn(world, { name: "Peas" });
        await addAll([item]);
        expect(
          await repository.historyForMember(memberItem(world.users.bob.id, world.home.householdId, item.id)),
        ).to.deep.equal({
          found: [],
        });
        expect(
          await repository.historyForMember(memberItem(world.users.bob.id, world.home.householdId, "nothere")),
        ).to.deep.equal({
          found: undefined,
        });
        expect(
          await repository.historyForMember(memberItem(world.users.alice.id, world.away.householdId, item.id)),
        ).to.equal(undefined);
      });
    });

    describe("create as a member", () => {
      it("inserts the item for a member when its compartment is in its freezer of the household", async () => {
        const item = itemIn(world, { name: "Fish fingers", quantity: 12, notes: "Big box" });
        const result = await repository.createForMember(world.users.bob.id, item);
        expect(result).to.have.property("created");
        const found = await repository.findById(world.home.householdId, item.id);
        expect(JSON.stringify("created" in result ? result.created : null)).to.equal(JSON.stringify(found));
        expect(found?.createdBy).to.deep.equal(world.users.alice);
      });

      it("refuses a non-member before looking at the placement, and writes nothing", async () => {
        const item = itemIn(world, { compartmentId: world.away.compartmentId });
        expect(await repository.createForMember("nobody", item)).to.deep.equal({ refused: "not-member" });
        expect(
          await repository.createForMember(world.users.alice.id, itemIn(world, { ...awayPlacement() })),
        ).to.deep.equal({ refused: "not-member" });
        expect(await repository.findById(world.home.householdId, item.id)).to.equal(undefined);
      });

      it("refuses a freezer of another household or a compartment of another freezer, and writes nothing", async () => {
        const wrongFreezer = itemIn(world, {
          freezerId: world.away.freezerId,
          compartmentId: world.away.compartmentId,
        });
        const wrongCompartment = itemIn(world, { compartmentId: world.home.otherCompartmentId });
        for (const item of [wrongFreezer, wrongCompartment]) {
          expect(await repository.createForMember(world.users.alice.id, item)).to.deep.equal({ refused: "placement" });
          expect(await repository.findById(world.home.householdId, item.id)).to.equal(undefined);
        }
        expect((await list(query())).total).to.equal(0);
      });
    });

    describe("create and find", () => {
      it("returns the stored item with creator and updater resolved", async () => {
        const item = itemIn(world, {
          name: "Chicken thighs",
          quantity: 2.5,
          notes: "Bag",
          expiresAt: new Date("2027-01-01T00:00:00.000Z"),
        });
        const created = await repository.create(item);
        expect(created).to.deep.include({ ...item });
        expect(created.createdBy).to.deep.equal(world.users.alice);
        expect(created.updatedBy).to.deep.equal(world.users.alice);
        const found = await repository.findById(world.home.householdId, item.id);
        expect(found).to.deep.equal(created);
      });

      it("does not find an item through another household", async () => {
        const item = itemIn(world);
        await repository.create(item);
        expect(await repository.findById(world.away.householdId, item.id)).to.equal(undefined);
        expect(await repository.findById(world.home.householdId, "nosuchitem")).to.equal(undefined);
      });

      it("finds archived items", async () => {
        const item = itemIn(world, { deletedAt: new Date("2026-02-01T00:00:00.000Z") });
        await repository.create(item);
        expect((await repository.findById(world.home.householdId, item.id))?.deletedAt?.toISOString()).to.equal(
          "2026-02-01T00:00:00.000Z",
        );
      });

      it("inserts many items at once", async () => {
        await repository.insertMany(Array.from({ length: 30 }, (_, index) => itemIn(world, { name: `Bulk ${index}` })));
        expect((await list(query())).total).to.equal(30);
      });
    });

    describe("list", () => {
      it("lists only the household's active items and counts all matches", async () => {
        await addAll([
          itemIn(world, { name: "A" }),
          itemIn(world, { name: "B" }),
          itemIn(world, { name: "Gone", deletedAt: new Date() }),
          itemIn(world, {
            name: "Elsewhere",
            householdId: world.away.householdId,
            freezerId: world.away.freezerId,
            compartmentId: world.away.compartmentId,
          }),
        ]);
        const page = await list(query({ limit: 1 }));
        expect(page.total).to.equal(2);
        expect(page.items).to.have.length(1);
      });

      it("lists for a member of the household and for nobody else", async () => {
        await addAll([itemIn(world, { name: "A" }), itemIn(world, { name: "Gone", deletedAt: new Date() })]);
        const asMember = await repository.listForMember(world.users.bob.id, query());
        expect(asMember?.items.map((item) => item.name)).to.deep.equal(["A"]);
        const archive = await repository.listForMember(world.users.alice.id, query({ archived: true }));
        expect(archive?.items.map((item) => item.name)).to.deep.equal(["Gone"]);
        const outsider = await repository.listForMember(
          world.users.alice.id,
          query({ householdId: world.away.householdId }),
        );
        expect(outsider).to.equal(undefined);
      });

      it("pages newest first by default", async () => {
        await addAll(["one", "two", "three", "four", "five"].map((name) => itemIn(world, { name })));
        expect(await names({ limit: 2, page: 1 })).to.deep.equal(["five", "four"]);
        expect(await names({ limit: 2, page: 3 })).to.deep.equal(["one"]);
        expect(await names({ limit: 2, page: 4 })).to.deep.equal([]);
        expect((await list(query({ limit: 2, page: 4 }))).total).to.equal(5);
      });

      it("filters by freezer, compartments and expiry", async () => {
        const [top, bottom] = world.home.compartmentIds;
        await addAll([
          itemIn(world, { name: "top-soon", compartmentId: top, expiresAt: new Date("2026-03-01T00:00:00Z") }),
          itemIn(world, { name: "bottom-late", compartmentId: bottom, expiresAt: new Date("2026-09-01T00:00:00Z") }),
          itemIn(world, { name: "bottom-never", compartmentId: bottom }),
          itemIn(world, {
            name: "garage",
            freezerId: world.home.otherFreezerId,
            compartmentId: world.home.otherCompartmentId,
            expiresAt: new Date("2026-01-15T00:00:00Z"),
          }),
        ]);
        expect(await names({ freezerId: world.home.otherFreezerId })).to.deep.equal(["garage"]);
        expect(await names({ compartmentIds: [bottom], sort: "name", order: "asc" })).to.deep.equal([
          "bottom-late",
          "bottom-never",
        ]);
        expect(
          await names({ compartmentIds: [top, world.home.otherCompartmentId], sort: "name", order: "asc" }),
        ).to.deep.equal(["garage", "top-soon"]);
        expect(
          await names({ expiresBefore: new Date("2026-06-01T00:00:00Z"), sort: "name", order: "asc" }),
        ).to.deep.equal(["garage", "top-soon"]);
        expect(
          await names({ compartmentIds: [bottom], expiresBefore: new Date("2027-01-01T00:00:00Z") }),
        ).to.deep.equal(["bottom-late"]);
        // Strictly before: an item expiring exactly at the bound is excluded.
        expect(await names({ expiresBefore: new Date("2026-03-01T00:00:00Z") })).to.deep.equal(["garage"]);
      });

      it("sorts names by their letters without accents, as a German reader expects", async () => {
        await addAll(
          ["Himbeeren", "Hähnchenbrustfilet", "Zucchini", "Äpfel", "apfelmus", "Hackfleisch"].map((name) =>
            itemIn(world, { name }),
          ),
        );
        expect(await names({ sort: "name", order: "asc" })).to.deep.equal([
          "Äpfel",
          "apfelmus",
          "Hackfleisch",
          "Hähnchenbrustfilet",
          "Himbeeren",
          "Zucchini",
        ]);
      });

      it("sorts by every field in both directions, items without a value last", async () => {
        await addAll([
          itemIn(world, { name: "banana", quantity: 3, expiresAt: new Date("2026-05-01T00:00:00Z"), storedAt: null }),
          itemIn(world, { name: "Apple", quantity: 1, expiresAt: null, storedAt: new Date("2026-01-01T00:00:00Z") }),
          itemIn(world, {
            name: "cherry",
            quantity: 2,
            expiresAt: new Date("2026-04-01T00:00:00Z"),
            storedAt: new Date("2025-01-01T00:00:00Z"),
          }),
        ]);
        expect(await names({ sort: "name", order: "asc" })).to.deep.equal(["Apple", "banana", "cherry"]);
        expect(await names({ sort: "name", order: "desc" })).to.deep.equal(["cherry", "banana", "Apple"]);
        expect(await names({ sort: "quantity", order: "asc" })).to.deep.equal(["Apple", "cherry", "banana"]);
        expect(await names({ sort: "quantity" })).to.deep.equal(["banana", "cherry", "Apple"]);
        expect(await names({ sort: "expiresAt", order: "asc" })).to.deep.equal(["cherry", "banana", "Apple"]);
        expect(await names({ sort: "expiresAt", order: "desc" })).to.deep.equal(["banana", "cherry", "Apple"]);
        expect(await names({ sort: "storedAt", order: "asc" })).to.deep.equal(["cherry", "Apple", "banana"]);
        expect(await names({ sort: "storedAt", order: "desc" })).to.deep.equal(["Apple", "cherry", "banana"]);
        expect(await names({ sort: "createdAt", order: "asc" })).to.deep.equal(["banana", "Apple", "cherry"]);
        expect(await names()).to.deep.equal(["cherry", "Apple", "banana"]);
      });

      it("sorts names by their letters, accents and case aside, the name and id breaking ties", async () => {
        await addAll(
          ["Himbeeren", "Äpfel", "Hähnchenbrustfilet", "Österreichischer Kaiserschmarrn", "Apfel", "erbsen"].map(
            (name) => itemIn(world, { name }),
          ),
        );
        const ascending = [
          "Apfel",
          "Äpfel",
          "erbsen",
          "Hähnchenbrustfilet",
          "Himbeeren",
          "Österreichischer Kaiserschmarrn",
        ];
        expect(await names({ sort: "name", order: "asc" })).to.deep.equal(ascending);
        expect(await names({ sort: "name", order: "desc" })).to.deep.equal([...ascending].reverse());
        // Page by page the order holds: nothing repeats or goes missing between pages.
        const paged: string[] = [];
        for (let page = 1; page <= 3; page++) {
          paged.push(
            ...(await list(query({ sort: "name", order: "asc", limit: 2, page }))).items.map((item) => item.name),
          );
        }
        expect(paged).to.deep.equal(ascending);
      });
    });

    describe("exact totals past 10 000 matches", () => {
      it("counts every match, with filters, search and the archive, and after writes", async function () {
        // PGlite inserts 10 000 rows in a few seconds; a busy machine needs longer.
        this.timeout(120_000);
        const [top, bottom] = world.home.compartmentIds;
        const soon = new Date("2026-03-01T00:00:00.000Z");
        const items = Array.from({ length: 10_007 }, (_, index) =>
          itemIn(world, {
            name: index % 3 === 0 ? "Smoked chicken" : "Peas",
            compartmentId: index % 2 === 0 ? top : bottom,
            expiresAt: index % 4 === 0 ? soon : null,
            deletedAt: index < 5 ? new Date("2026-02-01T00:00:00.000Z") : null,
          }),
        );
        await repository.insertMany(items);
        await repository.insertMany([itemIn(world, awayPlacement())]);
        const active = items.filter((item) => item.deletedAt === null);
        const expected = (keep: (item: FreezerItem) => boolean) => active.filter(keep).length;
        const totals = async (overrides: Partial<ItemListQuery> = {}) => {
          const page = await list(query({ limit: 20, ...overrides }));
          expect(page.items.length).to.equal(Math.min(20, page.total));
          return page.total;
        };

        expect(await totals()).to.equal(10_002);
        expect(await totals({ page: 400 })).to.equal(10_002);
        expect(await totals({ archived: true })).to.equal(5);
        expect(await totals({ compartmentIds: [bottom] })).to.equal(expected((item) => item.compartmentId === bottom));
        expect(await totals({ freezerId: world.home.freezerId })).to.equal(10_002);
        const later = new Date("2026-04-01T00:00:00.000Z");
        expect(await totals({ compartmentIds: [top, bottom], expiresBefore: later })).to.equal(
          expected((item) => item.expiresAt !== null),
        );
        expect(await totals({ search: "peas" })).to.equal(expected((item) => item.name === "Peas"));
        expect(await totals({ search: "chicken", compartmentIds: [top] })).to.equal(
          expected((item) => item.name === "Smoked chicken" && item.compartmentId === top),
        );
        expect(await totals({ sort: "name", order: "asc", page: 2 })).to.equal(10_002);

        // Archiving one, creating one and deleting one move the counts at once.
        const first = active[0]!;
        await repository.update(world.home.householdId, first.id, (current) => ({
          item: { ...current, deletedAt: new Date() },
          changes: [],
        }));
        await repository.create(itemIn(world));
        await repository.deletePermanently(world.home.householdId, active[1]!.id, () => {});
        expect(await totals()).to.equal(10_001);
        expect(await totals({ archived: true })).to.equal(6);
      });
    });

    describe("search", () => {
      beforeEach(async () => {
        await addAll(
          [
            "Chicken thighs",
            "Chicken wings",
            "Crème fraîche",
            "Beef stew",
            "Beefsteak tomatoes",
            "Smoked salmon",
            "Peas 100% organic",
            "Ben's_cookies",
            "Weißwurst",
            "Ice-cream (vanilla)",
          ].map((name) => itemIn(world, { name })),
        );
        await repository.create(itemIn(world, { name: "Chicken soup", deletedAt: new Date() }));
      });
      const search = (text: string) => names({ search: text });

      it("matches word prefixes, ignoring case", async () => {
        expect(await search("chick")).to.deep.equal(["Chicken thighs", "Chicken wings"]);
        expect(await search("CHICKEN")).to.deep.equal(["Chicken thighs", "Chicken wings"]);
        expect(await search("thi")).to.deep.equal(["Chicken thighs"]);
      });

      describe("inside compound words", () => {
        beforeEach(async () => {
          await addAll(
            ["Vanilleeis", "Eiswürfel", "Eis am Stiel", "Fischstäbchen", "Hähnchenbrustfilet"].map((name) =>
              itemIn(world, { name }),
            ),
          );
        });

        it("finds words of three letters or more inside words, after whole words and word beginnings", async () => {
          // Weißwurst folds to "weisswurst": it holds "eis" too.
          expect(await search("eis")).to.deep.equal(["Eis am Stiel", "Eiswürfel", "Vanilleeis", "Weißwurst"]);
          expect(await search("stäbchen")).to.deep.equal(["Fischstäbchen"]);
          expect(await search("icken")).to.deep.equal(["Chicken thighs", "Chicken wings"]);
          expect(await search("vanille eis")).to.deep.equal(["Vanilleeis"]);
          expect(await search("eis stiel")).to.deep.equal(["Eis am Stiel"]);
        });

        it("ignores accents and case inside words as in whole words", async () => {
          for (const text of ["stabchen", "STÄBCHEN", "Stäbchen"]) {
            expect(await search(text)).to.deep.equal(["Fischstäbchen"]);
          }
          expect(await search("hahnchen")).to.deep.equal(["Hähnchenbrustfilet"]);
          expect(await search("hähnchen")).to.deep.equal(["Hähnchenbrustfilet"]);
          expect(await search("brust")).to.deep.equal(["Hähnchenbrustfilet"]);
          expect(await search("wurst")).to.deep.equal(["Weißwurst"]);
          expect(await search("sswu")).to.deep.equal(["Weißwurst"]);
        });

        it("matches one or two letters at word beginnings only", async () => {
          expect(await search("ei")).to.deep.equal(["Eis am Stiel", "Eiswürfel"]);
          expect(await search("is")).to.deep.equal([]);
          expect(await search("eis st")).to.deep.equal(["Eis am Stiel"]);
        });

        it("counts matches inside words and pages through them in rank order", async () => {
          const first = await list(query({ search: "eis", limit: 2 }));
          expect(first.total).to.equal(4);
          expect(first.items.map((item) => item.name)).to.deep.equal(["Eis am Stiel", "Eiswürfel"]);
          const second = await list(query({ search: "eis", limit: 2, page: 2 }));
          expect(second.items.map((item) => item.name)).to.deep.equal(["Vanilleeis", "Weißwurst"]);
          expect(await names({ search: "eis", sort: "name", order: "asc" })).to.deep.equal([
            "Eis am Stiel",
            "Eiswürfel",
            "Vanilleeis",
            "Weißwurst",
          ]);
        });
      });

      it("ignores accents on both sides", async () => {
        expect(await search("creme")).to.deep.equal(["Crème fraîche"]);
        expect(await search("FRAÎCHE")).to.deep.equal(["Crème fraîche"]);
        expect(await search("crème fraiche")).to.deep.equal(["Crème fraîche"]);
        expect(await search("weiss")).to.deep.equal(["Weißwurst"]);
      });

      it("finds names in any script by their own text, and folds compatibility forms", async () => {
        await addAll(
          ["김치찌개", "がんもどき", "दाल मखनी", "Йогурт", "Ёлка cake", "ﬁsh ﬁngers", "Ｆｕｌｌ cream milk"].map(
            (name) => itemIn(world, { name }),
          ),
        );
        expect(await search("김치")).to.deep.equal(["김치찌개"]);
        expect(await search("がんも")).to.deep.equal(["がんもどき"]);
        expect(await search("दाल")).to.deep.equal(["दाल मखनी"]);
        expect(await search("मखनी")).to.deep.equal(["दाल मखनी"]);
        expect(await search("йогу")).to.deep.equal(["Йогурт"]);
        expect(await search("ЁЛКА")).to.deep.equal(["Ёлка cake"]);
        expect(await search("елка")).to.deep.equal(["Ёлка cake"]);
        expect(await search("fish")).to.deep.equal(["ﬁsh ﬁngers"]);
        expect(await search("ﬁsh")).to.deep.equal(["ﬁsh ﬁngers"]);
        expect(await search("full cream")).to.deep.equal(["Ｆｕｌｌ cream milk"]);
        expect(await search("ｆｕｌｌ")).to.deep.equal(["Ｆｕｌｌ cream milk"]);
      });

      it("requires every word", async () => {
        expect(await search("chicken wi")).to.deep.equal(["Chicken wings"]);
        expect(await search("wings chicken")).to.deep.equal(["Chicken wings"]);
        expect(await search("chicken salmon")).to.deep.equal([]);
      });

      it("ranks whole-word matches first, then by name", async () => {
        expect(await search("beef")).to.deep.equal(["Beef stew", "Beefsteak tomatoes"]);
        expect(await search("chicken")).to.deep.equal(["Chicken thighs", "Chicken wings"]);
      });

      it("treats wildcards, quotes and operators as plain text", async () => {
        expect(await search("%")).to.deep.equal([]);
        expect(await search("_")).to.deep.equal([]);
        expect(await search("%%")).to.deep.equal([]);
        expect(await search("100%")).to.deep.equal(["Peas 100% organic"]);
        expect(await search("organic?")).to.deep.equal(["Peas 100% organic"]);
        expect(await search("?")).to.deep.equal([]);
        expect(await search("ben's")).to.deep.equal(["Ben's_cookies"]);
        expect(await search("cookies")).to.deep.equal(["Ben's_cookies"]);
        expect(await search("'")).to.deep.equal([]);
        expect(await search('"chicken"')).to.deep.equal(["Chicken thighs", "Chicken wings"]);
        expect(await search("chicken & !wings")).to.deep.equal(["Chicken wings"]);
        expect(await search("chicken | salmon")).to.deep.equal([]);
        expect(await search("chick:* <-> (wings)")).to.deep.equal(["Chicken wings"]);
        expect(await search("\\")).to.deep.equal([]);
        expect(await search("ice-cream")).to.deep.equal(["Ice-cream (vanilla)"]);
        expect(await search("vanilla)")).to.deep.equal(["Ice-cream (vanilla)"]);
      });

      it("counts search matches and combines with filters", async () => {
        const page = await list(query({ search: "chicken", limit: 1 }));
        expect(page.total).to.equal(2);
        expect(page.items.map((item) => item.name)).to.deep.equal(["Chicken thighs"]);
        expect(await names({ search: "chicken", compartmentIds: [world.home.compartmentIds[1]] })).to.deep.equal([]);
        const pastTheEnd = await list(query({ search: "chicken", limit: 1, page: 5 }));
        expect(pastTheEnd).to.deep.equal({ items: [], total: 2 });
        const secondPage = await list(query({ search: "chicken", limit: 1, page: 2 }));
        expect(secondPage.items.map((item) => item.name)).to.deep.equal(["Chicken wings"]);
        expect(secondPage.total).to.equal(2);
      });

      it("honours an explicit sort while searching", async () => {
        expect(await names({ search: "chicken", sort: "name", order: "desc" })).to.deep.equal([
          "Chicken wings",
          "Chicken thighs",
        ]);
      });
    });

    describe("update", () => {
      it("stores the new state and its changes atomically", async () => {
        const item = itemIn(world, { name: "Peas", quantity: 1 });
        await repository.create(item);
        const at = new Date("2026-06-01T10:00:00.000Z");
        const changes: ChangeLogEntry[] = [
          {
            id: "chg1",
            itemId: item.id,
            fieldName: "name",
            oldValue: "Peas",
            newValue: "Garden peas",
            changedAt: at,
            changedById: world.users.bob.id,
          },
          {
            id: "chg2",
            itemId: item.id,
            fieldName: "quantity",
            oldValue: "1",
            newValue: "3",
            changedAt: at,
            changedById: world.users.bob.id,
          },
        ];
        const updated = await repository.update(world.home.householdId, item.id, (current) => ({
          item: { ...current, name: "Garden peas", quantity: 3, updatedAt: at, updatedById: world.users.bob.id },
          changes,
        }));
        expect(updated?.name).to.equal("Garden peas");
        expect(updated?.quantity).to.equal(3);
        expect(updated?.updatedBy).to.deep.equal(world.users.bob);
        expect(updated?.createdBy).to.deep.equal(world.users.alice);
        expect(updated?.updatedAt.toISOString()).to.equal(at.toISOString());
        const entries = await history(item);
        expect(entries.map((entry) => entry.fieldName)).to.deep.equal(["name", "quantity"]);
        expect(entries[0]!.changedBy).to.deep.equal(world.users.bob);
        expect(entries[1]).to.deep.include({ oldValue: "1", newValue: "3", changedById: world.users.bob.id });
      });

      it("writes nothing when the updater throws", async () => {
        const item = itemIn(world);
        await repository.create(item);
        let error: unknown;
        try {
          await repository.update(world.home.householdId, item.id, () => {
            throw new ItemArchivedError();
          });
        } catch (caught) {
          error = caught;
        }
        expect(error).to.be.instanceOf(ItemArchivedError);
        expect(await repository.findById(world.home.householdId, item.id)).to.deep.include({ name: item.name });
      });

      it("returns undefined for an item of another household", async () => {
        const item = itemIn(world);
        await repository.create(item);
        let called = false;
        const result = await repository.update(world.away.householdId, item.id, (current) => {
          called = true;
          return { item: current, changes: [] };
        });
        expect(result).to.equal(undefined);
        expect(called).to.equal(false);
      });

      it("orders history newest first, one change's fields by name", async () => {
        const item = itemIn(world);
        await repository.create(item);
        const first = new Date("2026-06-01T10:00:00.000Z");
        const second = new Date("2026-06-01T11:00:00.000Z");
        const entry = (id: string, fieldName: string, changedAt: Date): ChangeLogEntry => ({
          id,
          itemId: item.id,
          fieldName,
          oldValue: null,
          newValue: "x",
          changedAt,
          changedById: world.users.alice.id,
        });
        await repository.update(world.home.householdId, item.id, (current) => ({
          item: current,
          changes: [entry("zz1", "quantity", first), entry("zz2", "name", first)],
        }));
        await repository.update(world.home.householdId, item.id, (current) => ({
          item: current,
          changes: [entry("aa1", "storedAt", second), entry("aa2", "expiresAt", second)],
        }));
        const entries = await history(item);
        expect(entries.map((e) => e.fieldName)).to.deep.equal(["expiresAt", "storedAt", "name", "quantity"]);
        expect(entries[0]!.changedAt.toISOString()).to.equal(second.toISOString());
      });
    });

    describe("archive list and permanent delete", () => {
      it("lists archived items, most recently archived first", async () => {
        await addAll([
          itemIn(world, { name: "old", deletedAt: new Date("2026-01-01T00:00:00Z") }),
          itemIn(world, { name: "new", deletedAt: new Date("2026-03-01T00:00:00Z") }),
          itemIn(world, { name: "mid", deletedAt: new Date("2026-02-01T00:00:00Z") }),
          itemIn(world, { name: "active" }),
        ]);
        const archived = await repository.listArchived(world.home.householdId);
        expect(archived.map((item) => item.name)).to.deep.equal(["new", "mid", "old"]);
        expect(archived[0]!.createdBy).to.deep.equal(world.users.alice);
        expect(await repository.listArchived(world.away.householdId)).to.deep.equal([]);
      });

      it("deletes an item and its history when the check passes", async () => {
        const item = itemIn(world, { deletedAt: new Date() });
        await repository.create(item);
        await repository.update(world.home.householdId, item.id, (current) => ({
          item: current,
          changes: [
            {
              id: `c${item.id}`,
              itemId: item.id,
              fieldName: "name",
              oldValue: "a",
              newValue: "b",
              changedAt: new Date(),
              changedById: world.users.alice.id,
            },
          ],
        }));
        expect(await repository.deletePermanently(world.away.householdId, item.id, () => {})).to.equal(false);
        expect(await repository.deletePermanently(world.home.householdId, item.id, () => {})).to.equal(true);
        expect(await repository.findById(world.home.householdId, item.id)).to.equal(undefined);
        expect(await repository.history(item.id)).to.deep.equal([]);
        expect(await repository.deletePermanently(world.home.householdId, item.id, () => {})).to.equal(false);
      });

      it("keeps the item when the check vetoes", async () => {
        const item = itemIn(world);
        await repository.create(item);
        let vetoed = false;
        try {
          await repository.deletePermanently(world.home.householdId, item.id, () => {
            throw new ItemArchivedError();
          });
        } catch (error) {
          vetoed = error instanceof ItemArchivedError;
        }
        expect(vetoed).to.equal(true);
        expect(await repository.findById(world.home.householdId, item.id)).to.not.equal(undefined);
      });
    });

    describe("barcode", () => {
      it("stores, reads, lists, changes and clears an item's barcode", async () => {
        const item = itemIn(world, { barcode: "4006381333931" });
        const created = await repository.createForMember(world.users.alice.id, item);
        expect("created" in created && created.created.barcode).to.equal("4006381333931");
        expect((await repository.findById(world.home.householdId, item.id))?.barcode).to.equal("4006381333931");
        expect((await list(query())).items.find((row) => row.id === item.id)?.barcode).to.equal("4006381333931");
        const at = new Date(item.updatedAt.getTime() + 1000);
        const updated = await repository.update(world.home.householdId, item.id, (current) => ({
          item: { ...current, barcode: "96385074", updatedAt: at },
          changes: [
            {
              id: `chg${item.id}`,
              itemId: item.id,
              fieldName: "barcode",
              oldValue: "4006381333931",
              newValue: "96385074",
              changedAt: at,
              changedById: world.users.alice.id,
            },
          ],
        }));
        expect(updated?.barcode).to.equal("96385074");
        expect((await history(item)).map((entry) => [entry.fieldName, entry.oldValue, entry.newValue])).to.deep.equal([
          ["barcode", "4006381333931", "96385074"],
        ]);
        const cleared = await repository.update(world.home.householdId, item.id, (current) => ({
          item: { ...current, barcode: null, updatedAt: new Date(at.getTime() + 1000) },
          changes: [],
        }));
        expect(cleared?.barcode).to.equal(null);
        expect((await repository.findById(world.home.householdId, item.id))?.barcode).to.equal(null);
      });
    });
  });
}
