import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import request from "supertest";
import { SHOPPING_LIST_MAX_ENTRIES } from "../../../src/domain/inventory/shopping-list.js";
import { openEventStream } from "../../support/event-stream-client.js";
import type { Caller, ItemsHttpWorld } from "../../support/items-http.js";

type Method = "get" | "post" | "patch" | "delete";
interface Entry {
  id: string;
  name: string;
  quantity: number;
  unit: string;
  categoryId: string | null;
  checked: boolean;
  position: number;
  updatedAt: string;
}

/**
 * The shopping list over one app: what the routes answer, what they store (through the
 * repository of the app's adapter family), what they refuse, and that concurrent reorders of
 * two members leave one consistent order.
 */
export function describeShoppingListHttpContract(label: string, build: () => Promise<ItemsHttpWorld>): void {
  describe(`shopping list HTTP API: ${label}`, function () {
    this.timeout(120_000);
    let w: ItemsHttpWorld;

    before(async () => {
      w = await build();
    });
    after(async () => {
      await w?.close();
    });

    const send = (method: Method, path: string, caller?: Caller, body?: unknown) => {
      let pending = request(w.app)[method](`/api/v1${path}`);
      if (caller) pending = pending.set("Authorization", `Bearer ${caller.token}`);
      return body === undefined ? pending : pending.send(body as object);
    };
    const list = (hid = w.hid) => `/households/${hid}/shopping-list`;
    const add = async (body: object, caller: Caller = w.member): Promise<Entry> => {
      const response = await send("post", list(), caller, body);
      expect(response.status, JSON.stringify(response.body)).to.equal(201);
      return response.body as Entry;
    };
    /** One of the household's own categories (every household starts with the defaults). */
    const aCategory = async (): Promise<string> => {
      const response = await send("get", `/households/${w.hid}/categories`, w.member);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      return (response.body as { id: string }[])[0]!.id;
    };
    const read = async (caller: Caller = w.member): Promise<Entry[]> => {
      const response = await send("get", list(), caller);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      return response.body as Entry[];
    };
    const clear = async () => {
      // Bottom first: no entry below the removed one has to move up.
      for (const entry of (await read()).reverse()) {
        expect((await send("delete", `${list()}/${entry.id}`, w.member)).status).to.equal(200);
      }
    };
    const expectError = (response: request.Response, status: number) => {
      expect(response.status, JSON.stringify(response.body)).to.equal(status);
      expect(response.body).to.include({ statusCode: status });
      expect(response.body.message).to.be.a("string");
    };
    const names = (entries: Entry[]) => entries.map((entry) => entry.name);
    const positions = (entries: Entry[]) => entries.map((entry) => entry.position);

    beforeEach(clear);

    it("adds entries at the bottom with defaults, lists them in order, and answers the same to every member", async () => {
      const milk = await add({ name: "  Milk  " });
      expect(milk).to.include({
        name: "Milk",
        quantity: 1,
        unit: "piece",
        categoryId: null,
        checked: false,
        position: 0,
      });
      expect(milk.id).to.be.a("string");
      const categoryId = await aCategory();
      const peas = await add({ name: "Peas", quantity: 0.5, unit: "kg", categoryId }, w.owner);
      expect(peas).to.include({ quantity: 0.5, unit: "kg", categoryId, position: 1 });
      const top = await add({ name: "Bread", position: 0, checked: true });
      expect(top).to.include({ position: 0, checked: true });
      expect(names(await read(w.owner))).to.deep.equal(["Bread", "Milk", "Peas"]);
      expect(positions(await read())).to.deep.equal([0, 1, 2]);
      const entry = (await read())[0] as Entry & Record<string, unknown>;
      expect(Object.keys(entry).sort()).to.deep.equal(
        [
          "categoryId",
          "checked",
          "createdAt",
          "householdId",
          "id",
          "name",
          "position",
          "quantity",
          "unit",
          "updatedAt",
        ].sort(),
      );
    });

    it("checks off, changes fields, and moves an entry, shifting the ones in between", async () => {
      for (const name of ["A", "B", "C", "D", "E"]) await add({ name });
      const [a, , , d] = await read();
      const checked = await send("patch", `${list()}/${d!.id}`, w.member, { checked: true, quantity: 3, unit: "bag" });
      expect(checked.status, JSON.stringify(checked.body)).to.equal(200);
      expect(checked.body).to.include({ checked: true, quantity: 3, unit: "bag", position: 3 });

      const down = await send("patch", `${list()}/${a!.id}`, w.member, { position: 3 });
      expect(down.body).to.include({ name: "A", position: 3 });
      expect(names(await read())).to.deep.equal(["B", "C", "D", "A", "E"]);
      const up = await send("patch", `${list()}/${d!.id}`, w.owner, { position: 0 });
      expect(up.body).to.include({ position: 0 });
      expect(names(await read())).to.deep.equal(["D", "B", "C", "A", "E"]);
      // Past the end is the bottom.
      await send("patch", `${list()}/${d!.id}`, w.owner, { position: SHOPPING_LIST_MAX_ENTRIES });
      const after = await read();
      expect(names(after)).to.deep.equal(["B", "C", "A", "E", "D"]);
      expect(positions(after)).to.deep.equal([0, 1, 2, 3, 4]);
      // An empty patch changes nothing.
      const same = await send("patch", `${list()}/${d!.id}`, w.owner, {});
      expect(same.status).to.equal(200);
      expect(same.body.updatedAt).to.equal(after[4]!.updatedAt);
    });

    it("removes an entry and closes the gap", async () => {
      for (const name of ["A", "B", "C"]) await add({ name });
      const [, b] = await read();
      const removed = await send("delete", `${list()}/${b!.id}`, w.member);
      expect(removed.status).to.equal(200);
      expect(removed.body.message).to.be.a("string");
      const rest = await read();
      expect(names(rest)).to.deep.equal(["A", "C"]);
      expect(positions(rest)).to.deep.equal([0, 1]);
      expectError(await send("delete", `${list()}/${b!.id}`, w.member), 404);
    });

    it("puts a used-up item on the list by its id (active or archived), never another household's", async () => {
      const item = await send("post", `/households/${w.hid}/items`, w.member, {
        name: "Fish fingers",
        quantity: 1,
        freezerId: w.freezerId,
        compartmentId: w.compartmentIds[0],
      });
      expect(item.status).to.equal(201);
      expect(
        (await send("post", `/households/${w.hid}/items/${item.body.id}/consume`, w.member, { quantity: 1 })).status,
      ).to.equal(200);
      const entry = await add({ fromItemId: item.body.id });
      expect(entry).to.include({ name: "Fish fingers", quantity: 1, unit: "piece" });
      const renamed = await add({ fromItemId: item.body.id, name: "Fish sticks", quantity: 2 });
      expect(renamed).to.include({ name: "Fish sticks", quantity: 2 });

      const theirs = await send("post", `/households/${w.outsiderHid}/items`, w.outsider, {
        name: "Theirs",
        quantity: 1,
        freezerId: w.outsiderFreezerId,
        compartmentId: w.outsiderCompartmentId,
      });
      expectError(await send("post", list(), w.member, { fromItemId: theirs.body.id }), 404);
      expect(names(await read())).to.deep.equal(["Fish fingers", "Fish sticks"]);
    });

    it("an item by weight or volume goes on the list as the most it held; counted ones as one", async () => {
      const stock = async (name: string, quantity: number, unit: string): Promise<string> => {
        const created = await send("post", `/households/${w.hid}/items`, w.member, {
          name,
          quantity,
          unit,
          freezerId: w.freezerId,
          compartmentId: w.compartmentIds[0],
        });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        return created.body.id as string;
      };
      const takeOut = async (id: string, quantity: number) => {
        const taken = await send("post", `/households/${w.hid}/items/${id}/consume`, w.member, { quantity });
        expect(taken.status, JSON.stringify(taken.body)).to.equal(200);
      };
      // Each on a list of its own: the same thing added again would add to the first.
      const addAlone = async (body: object) => {
        await clear();
        return add(body);
      };
      // Used up in two goes: the pack held 500 g, not the 300 g of the last take-out, nor 1 g.
      const mince = await stock("Mince", 500, "g");
      await takeOut(mince, 200);
      await takeOut(mince, 300);
      expect(await addAlone({ fromItemId: mince })).to.include({ name: "Mince", quantity: 500, unit: "g" });
      // In another unit of the same measure, converted; an amount given is taken as it is.
      expect(await addAlone({ fromItemId: mince, unit: "kg" })).to.include({ quantity: 0.5, unit: "kg" });
      expect(await addAlone({ fromItemId: mince, quantity: 250 })).to.include({ quantity: 250, unit: "g" });
      // Archived with some left: the quantity it kept (archiving does not change it).
      const stock2 = await stock("Stock", 0.75, "l");
      expect((await send("delete", `/households/${w.hid}/items/${stock2}`, w.member)).status).to.equal(200);
      expect(await add({ fromItemId: stock2 })).to.include({ quantity: 0.75, unit: "l" });
      // A unit changed on the way: only what it held in the new unit counts.
      const soup = await stock("Soup", 2, "l");
      const changed = await send("patch", `/households/${w.hid}/items/${soup}`, w.member, {
        quantity: 800,
        unit: "ml",
      });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      await takeOut(soup, 800);
      expect(await add({ fromItemId: soup })).to.include({ quantity: 800, unit: "ml" });
      // Counted one by one: one, whatever the item held.
      const bags = await stock("Peas", 3, "bag");
      await takeOut(bags, 3);
      expect(await add({ fromItemId: bags })).to.include({ quantity: 1, unit: "bag" });
      const pies = await stock("Pies", 4, "piece");
      await takeOut(pies, 4);
      expect(await add({ fromItemId: pies })).to.include({ quantity: 1, unit: "piece" });
    });

    it("adding what the list holds unchecked (same name ignoring case, same unit) adds to that entry: 200, not a second line", async () => {
      const milk = await add({ name: "Milk", quantity: 2, unit: "l" });
      await add({ name: "Bread" });
      const more = await send("post", list(), w.owner, { name: "  MILK ", quantity: 1.5, unit: "l" });
      expect(more.status, JSON.stringify(more.body)).to.equal(200);
      expect(more.body).to.include({ id: milk.id, name: "Milk", quantity: 3.5, unit: "l", position: 0 });
      expect(more.body.updatedAt > milk.updatedAt).to.equal(true);
      // Another unit is another thing to buy; so is one already checked off (it is in the trolley).
      await add({ name: "Milk", quantity: 500, unit: "ml" });
      const bread = (await read())[1]!;
      expect((await send("patch", `${list()}/${bread.id}`, w.member, { checked: true })).status).to.equal(200);
      await add({ name: "bread" });
      // An addition ticked off already is a line of its own too.
      await add({ name: "Milk", unit: "l", checked: true });
      expect((await read()).map((entry) => [entry.name, entry.quantity, entry.unit, entry.checked])).to.deep.equal([
        ["Milk", 3.5, "l", false],
        ["Bread", 1, "piece", true],
        ["Milk", 500, "ml", false],
        ["bread", 1, "piece", false],
        ["Milk", 1, "l", true],
      ]);
      // A position moves the entry added to, as a PATCH would; the rest close up.
      const moved = await send("post", list(), w.member, { name: "bread", position: 0 });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      expect(moved.body).to.include({ name: "bread", quantity: 2, position: 0 });
      expect(positions(await read())).to.deep.equal([0, 1, 2, 3, 4]);
      // From an item, the same: a second used-up pack of mince makes the line 1 kg, not two lines.
      for (const round of [1, 2]) {
        const item = await send("post", `/households/${w.hid}/items`, w.member, {
          name: "Mince",
          quantity: 500,
          unit: "g",
          freezerId: w.freezerId,
          compartmentId: w.compartmentIds[0],
        });
        await send("post", `/households/${w.hid}/items/${item.body.id}/consume`, w.member, { quantity: 500 });
        const entry = await send("post", list(), w.member, { fromItemId: item.body.id });
        expect(entry.status, JSON.stringify(entry.body)).to.equal(round === 1 ? 201 : 200);
      }
      expect((await read()).filter((entry) => entry.name === "Mince").map((entry) => entry.quantity)).to.deep.equal([
        1000,
      ]);
      // More than an entry may hold is refused and changes nothing.
      const before = await read();
      expectError(await send("post", list(), w.member, { name: "Milk", quantity: 1_000_000, unit: "l" }), 400);
      expect(await read()).to.deep.equal(before);
    });

    it("a full list still takes more of what is on it", async () => {
      for (let index = 0; index < SHOPPING_LIST_MAX_ENTRIES; index++) {
        expect((await send("post", list(), w.owner, { name: `Entry ${index}` })).status).to.equal(201);
      }
      const more = await send("post", list(), w.member, { name: "entry 7", quantity: 2 });
      expect(more.status, JSON.stringify(more.body)).to.equal(200);
      expect(more.body).to.include({ name: "Entry 7", quantity: 3 });
      expectError(await send("post", list(), w.member, { name: "Something new" }), 409);
    });

    it("two members adding the same thing at once leave one entry holding both amounts, with one event each", async () => {
      const server: Server = createServer(w.app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      const stream = await openEventStream(`${base}/households/${w.hid}/events`, {
        Authorization: `Bearer ${w.owner.token}`,
      });
      try {
        expect(stream.status).to.equal(200);
        await add({ name: "Butter" });
        const rounds = 8;
        const answers = await Promise.all(
          Array.from({ length: rounds }, (_, index) =>
            send("post", list(), index % 2 ? w.owner : w.member, { name: index % 2 ? "EGGS" : "eggs", quantity: 1 }),
          ),
        );
        const statuses = answers.map((answer) => answer.status).sort();
        expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200, 200, 201]);
        const after = await read();
        expect(after.map((entry) => [entry.name.toLowerCase(), entry.quantity, entry.position])).to.deep.equal([
          ["butter", 1, 0],
          ["eggs", rounds, 1],
        ]);
        // Every addition is one event: the first "added", each later one "updated" with the total it left.
        const eggs = after[1]!;
        const seen: { type: string; quantity: number }[] = [];
        let from = 0;
        while (seen.length < rounds) {
          const message = await stream.next(
            (candidate) =>
              (candidate.event === "shopping_list.added" || candidate.event === "shopping_list.updated") &&
              (candidate.data as { data: { entry: Entry } }).data.entry.id === eggs.id,
            from,
          );
          from = stream.messages.indexOf(message) + 1;
          const data = message.data as { data: { entry: Entry; changes?: string[] } };
          if (message.event === "shopping_list.updated") expect(data.data.changes).to.deep.equal(["quantity"]);
          seen.push({ type: message.event, quantity: data.data.entry.quantity });
        }
        expect(seen.map((event) => event.type)).to.deep.equal([
          "shopping_list.added",
          ...Array(rounds - 1).fill("shopping_list.updated"),
        ]);
        expect(seen.map((event) => event.quantity)).to.deep.equal([...Array(rounds).keys()].map((n) => n + 1));
      } finally {
        stream.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it("an entry in portions or bags is a whole number, so what is put away is an item the item API takes", async () => {
      const refused = async (method: Method, path: string, body: object, field: string) => {
        const response = await send(method, path, w.member, body);
        expectError(response, 400);
        expect(response.headers["hearth-error-code"]).to.equal("QUANTITY_NOT_WHOLE");
        expect(response.body.message).to.match(/whole numbers/);
        expect(response.body.details).to.deep.equal([
          {
            path: field,
            message: `must be a whole number when the unit is ${(body as { unit?: string }).unit ?? "bag"}`,
          },
        ]);
      };
      await refused("post", list(), { name: "Peas", quantity: 1.5, unit: "bag" }, "quantity");
      await refused("post", list(), { name: "Soup", quantity: 0.5, unit: "portion" }, "quantity");
      // From an item in bags, a fraction given for it is refused just the same.
      const bags = await send("post", `/households/${w.hid}/items`, w.member, {
        name: "Chips",
        quantity: 2,
        unit: "bag",
        freezerId: w.freezerId,
        compartmentId: w.compartmentIds[0],
      });
      expect(bags.status, JSON.stringify(bags.body)).to.equal(201);
      await refused("post", list(), { fromItemId: bags.body.id, quantity: 2.5 }, "quantity");
      expect(await read()).to.deep.equal([]);
      // Pieces take fractions, as items do (half a cake); weights and volumes of course.
      await add({ name: "Cake", quantity: 0.5 });
      const peas = await add({ name: "Peas", quantity: 2, unit: "bag" });
      const rice = await add({ name: "Rice", quantity: 1.5, unit: "kg" });
      await refused("patch", `${list()}/${peas.id}`, { quantity: 1.5 }, "quantity");
      // Checked on the result: 1.5 kg turned into bags is as wrong as 1.5 bags.
      await refused("patch", `${list()}/${rice.id}`, { unit: "bag" }, "unit");
      expect((await read()).map((entry) => [entry.name, entry.quantity, entry.unit])).to.deep.equal([
        ["Cake", 0.5, "piece"],
        ["Peas", 2, "bag"],
        ["Rice", 1.5, "kg"],
      ]);
      const fixed = await send("patch", `${list()}/${rice.id}`, w.member, { quantity: 2, unit: "bag", checked: true });
      expect(fixed.status, JSON.stringify(fixed.body)).to.equal(200);
      // Put away, the bags are an item the item API edits like any other.
      const stocked = await send("post", `${list()}/checked/stock`, w.member, {
        freezerId: w.freezerId,
        compartmentId: w.compartmentIds[0],
      });
      expect(stocked.status, JSON.stringify(stocked.body)).to.equal(201);
      const item = stocked.body.items[0] as { id: string; quantity: number };
      expect(item.quantity).to.equal(2);
      const edited = await send("patch", `/households/${w.hid}/items/${item.id}`, w.member, {
        name: "Basmati rice",
        quantity: 2,
        unit: "bag",
      });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      // An import brings no fractional bags onto the list either.
      const file = JSON.stringify({
        shoppingList: [{ id: "entryaabcdefgh", name: "Beans", quantity: 1.5, unit: "bag" }],
      });
      const imported = await request(w.app)
        .post(`/api/v1/households/${w.hid}/import`)
        .set("Authorization", `Bearer ${w.owner.token}`)
        .set("Content-Type", "application/json")
        .send(file);
      expectError(imported, 400);
      expect(imported.body.details[0].path).to.equal("shoppingList[0]");
      expect(imported.body.details[0].message).to.match(/whole number/);
    });

    it("stocks the checked entries as items of one compartment and takes them off the list, in one step", async () => {
      await add({ name: "Peas", quantity: 2, checked: true });
      await add({ name: "Milk" });
      await add({ name: "Ice cream", quantity: 1, checked: true });
      const stocked = await send("post", `${list()}/checked/stock`, w.member, {
        freezerId: w.freezerId,
        compartmentId: w.compartmentIds[1],
        expiresAt: "2027-06-01T00:00:00Z",
      });
      expect(stocked.status, JSON.stringify(stocked.body)).to.equal(201);
      expect(stocked.body.itemsCreated).to.equal(2);
      expect(stocked.body.items.map((item: { name: string }) => item.name)).to.deep.equal(["Peas", "Ice cream"]);
      const rest = await read();
      expect(names(rest)).to.deep.equal(["Milk"]);
      expect(positions(rest)).to.deep.equal([0]);
      const peas = await send("get", `/households/${w.hid}/items/${stocked.body.items[0].id}`, w.owner);
      expect(peas.status).to.equal(200);
      expect(peas.body).to.include({
        name: "Peas",
        quantity: 2,
        freezerId: w.freezerId,
        compartmentId: w.compartmentIds[1],
        expiresAt: "2027-06-01T00:00:00.000Z",
      });
      expect(peas.body.createdBy.id).to.equal(w.member.id);
      expect(peas.body.storedAt).to.be.a("string");
      expectError(
        await send("post", `${list()}/checked/stock`, w.member, {
          freezerId: w.freezerId,
          compartmentId: w.compartmentIds[0],
        }),
        409,
      );
    });

    it("stocking into a freezer or compartment outside the household is refused and changes nothing", async () => {
      await add({ name: "Peas", checked: true });
      for (const body of [
        { freezerId: w.outsiderFreezerId, compartmentId: w.outsiderCompartmentId },
        { freezerId: w.freezerId, compartmentId: w.otherCompartmentId },
      ]) {
        expectError(await send("post", `${list()}/checked/stock`, w.member, body), 400);
      }
      const rest = await read();
      expect(rest.map((entry) => [entry.name, entry.checked])).to.deep.equal([["Peas", true]]);
    });

    it("refuses outsiders, signed-out callers and entries of another household", async () => {
      const mine = await add({ name: "Mine" });
      const theirs = await send("post", list(w.outsiderHid), w.outsider, { name: "Theirs" });
      expect(theirs.status).to.equal(201);
      expectError(await send("get", list()), 401);
      expectError(await send("post", list(), undefined, { name: "X" }), 401);
      expectError(await send("get", list(), w.outsider), 403);
      expectError(await send("post", list(), w.outsider, { name: "X" }), 403);
      expectError(await send("patch", `${list()}/${mine.id}`, w.outsider, { checked: true }), 403);
      expectError(await send("delete", `${list()}/${mine.id}`, w.outsider), 403);
      expectError(
        await send("post", `${list()}/checked/stock`, w.outsider, {
          freezerId: w.freezerId,
          compartmentId: w.compartmentIds[0],
        }),
        403,
      );
      // A bad body from an outsider is still 403: the household is not theirs to ask about.
      expectError(await send("post", list(), w.outsider, { name: 5 }), 403);
      // Another household's entry under my household is not found, and stays as it was.
      expectError(await send("patch", `${list()}/${theirs.body.id}`, w.member, { checked: true }), 404);
      expectError(await send("delete", `${list()}/${theirs.body.id}`, w.member), 404);
      const outsiders = await send("get", list(w.outsiderHid), w.outsider);
      expect(outsiders.body.map((entry: Entry) => [entry.name, entry.checked])).to.deep.equal([["Theirs", false]]);
      await send("delete", `${list(w.outsiderHid)}/${theirs.body.id}`, w.outsider);
      expect(names(await read())).to.deep.equal(["Mine"]);
    });

    it("answers 400 for every malformed body or id and stores nothing", async () => {
      await add({ name: "Keep" });
      const [keep] = await read();
      const bad: [Method, string, unknown][] = [
        ["post", list(), {}],
        ["post", list(), { name: "" }],
        ["post", list(), { name: "x".repeat(201) }],
        ["post", list(), { name: 5 }],
        ["post", list(), { name: "A", quantity: 0 }],
        ["post", list(), { name: "A", quantity: -1 }],
        ["post", list(), { name: "A", quantity: "2" }],
        ["post", list(), { name: "A", quantity: 1e9 }],
        ["post", list(), { name: "A", unit: "stone" }],
        ["post", list(), { name: "A", categoryId: "NOT AN ID" }],
        // A well-formed id that is not one of the household's categories.
        ["post", list(), { name: "A", categoryId: "zzzzzzzzzzzz" }],
        ["patch", `${list()}/${keep!.id}`, { categoryId: "zzzzzzzzzzzz" }],
        ["post", list(), { name: "A", position: -1 }],
        ["post", list(), { name: "A", position: 1.5 }],
        ["post", list(), { name: "A", checked: "yes" }],
        ["post", list(), { name: "A", extra: true }],
        ["post", list(), { fromItemId: "bad id" }],
        ["post", list(), ["A"]],
        ["patch", `${list()}/${keep!.id}`, { name: "" }],
        ["patch", `${list()}/${keep!.id}`, { position: "1" }],
        ["patch", `${list()}/${keep!.id}`, { checked: null }],
        ["patch", `${list()}/${keep!.id}`, { id: "abcdefgh1" }],
        ["patch", `${list()}/NOT-AN-ID`, { checked: true }],
        ["delete", `${list()}/NOT-AN-ID`, undefined],
        ["post", `${list()}/checked/stock`, {}],
        ["post", `${list()}/checked/stock`, { freezerId: w.freezerId }],
        [
          "post",
          `${list()}/checked/stock`,
          { freezerId: w.freezerId, compartmentId: w.compartmentIds[0], expiresAt: "soon" },
        ],
        ["get", `${list()}?page=2`, undefined],
      ];
      for (const [method, path, body] of bad) {
        const response = await send(method, path, w.member, body);
        expect(response.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(response.body)}`).to.equal(
          400,
        );
        expect(response.body.statusCode).to.equal(400);
      }
      const notJson = await request(w.app)
        .post(`/api/v1${list()}`)
        .set("Authorization", `Bearer ${w.member.token}`)
        .set("Content-Type", "text/plain")
        .send("name=Milk");
      expectError(notJson, 415);
      const malformed = await request(w.app)
        .post(`/api/v1${list()}`)
        .set("Authorization", `Bearer ${w.member.token}`)
        .set("Content-Type", "application/json")
        .send('{"name": ');
      expectError(malformed, 400);
      expectError(await send("patch", `${list()}/abcdefgh1234`, w.member, { checked: true }), 404);
      const after = await read();
      expect(after).to.deep.equal([keep]);
    });

    it(`holds at most ${SHOPPING_LIST_MAX_ENTRIES} entries: one more is 409 and changes nothing`, async () => {
      for (let index = 0; index < SHOPPING_LIST_MAX_ENTRIES; index++) {
        const response = await send("post", list(), index % 2 ? w.owner : w.member, { name: `Entry ${index}` });
        expect(response.status).to.equal(201);
      }
      const full = await send("post", list(), w.member, { name: "One too many", position: 0 });
      expectError(full, 409);
      expect(full.body.message).to.match(/500/);
      const entries = await read();
      expect(entries).to.have.length(SHOPPING_LIST_MAX_ENTRIES);
      expect(entries[0]?.name).to.equal("Entry 0");
      expect(positions(entries)).to.deep.equal([...Array(SHOPPING_LIST_MAX_ENTRIES).keys()]);
    });

    it("concurrent reorders by two members leave one consistent order: every entry once, positions 0…n-1", async () => {
      for (let index = 0; index < 12; index++) await add({ name: `E${index}` });
      const entries = await read();
      const moves = entries.flatMap((entry, index) => [
        send("patch", `${list()}/${entry.id}`, w.member, { position: (index * 7) % 12 }),
        send("patch", `${list()}/${entries[11 - index]!.id}`, w.owner, {
          position: (index * 5) % 12,
          checked: index % 2 === 0,
        }),
      ]);
      moves.push(send("post", list(), w.owner, { name: "Added meanwhile", position: 3 }));
      const removed = entries[4]!;
      moves.push(send("delete", `${list()}/${removed.id}`, w.member));
      const answers = await Promise.all(moves);
      const statuses = answers.map((answer) => answer.status);
      // The entry removed meanwhile may be gone when a move of it runs: 404, never a 500.
      expect(
        statuses.every((status) => [200, 201, 404].includes(status)),
        JSON.stringify(statuses),
      ).to.equal(true);
      const after = await read();
      expect(positions(after)).to.deep.equal([...Array(12).keys()]);
      expect(new Set(after.map((entry) => entry.id)).size).to.equal(12);
      expect(after.map((entry) => entry.id)).not.to.include(removed.id);
      expect(names(after)).to.include("Added meanwhile");
      // Both members read the same order.
      expect(await read(w.owner)).to.deep.equal(after);
    });

    const importFile = (body: string, type = "application/json", caller: Caller = w.owner, query = "") =>
      request(w.app)
        .post(`/api/v1/households/${w.hid}/import${query}`)
        .set("Authorization", `Bearer ${caller.token}`)
        .set("Content-Type", type)
        .send(body);
    const shoppingFile = (entries: object[], more: object = {}) => JSON.stringify({ shoppingList: entries, ...more });

    it("travels in the export (JSON and CSV); an import adds what the list lacks, at the end, and again adds nothing", async () => {
      const category = await aCategory();
      await add({ name: "Peas, frozen", quantity: 0.5, unit: "kg", checked: true });
      await add({ name: "=cmd()", categoryId: category });
      await add({ name: "Bread", quantity: 2, unit: "bag" });
      const json = await send("get", `/households/${w.hid}/export?format=json`, w.member);
      expect(json.status).to.equal(200);
      const file = JSON.parse(json.text) as { shoppingList: Record<string, unknown>[] };
      expect(
        file.shoppingList.map((entry) => [entry.name, entry.quantity, entry.unit, entry.checked, entry.position]),
      ).to.deep.equal([
        ["Peas, frozen", 0.5, "kg", true, 0],
        ["=cmd()", 1, "piece", false, 1],
        ["Bread", 2, "bag", false, 2],
      ]);
      expect(Object.keys(file.shoppingList[0] as object).sort()).to.deep.equal(
        ["categoryId", "checked", "createdAt", "id", "name", "position", "quantity", "unit", "updatedAt"].sort(),
      );
      const csv = await send("get", `/households/${w.hid}/export?format=csv`, w.member);
      const lines = csv.text.trim().split("\r\n");
      expect(lines[0]).to.include("unit,categoryId,categoryName,key,checked");
      const shoppingLines = lines.filter((line) => line.startsWith("shopping,"));
      expect(shoppingLines).to.have.length(3);
      expect(shoppingLines[0]).to.include('"Peas, frozen"').and.include(",kg,").and.include(",true");
      // A cell a spreadsheet would run is defused, as everywhere in the CSV export.
      expect(shoppingLines[1]).to.include("'=cmd()");
      const exported = await read();

      // The list as another phone left it: the peas are on it already (the same thing: name
      // ignoring case, and unit); bread in grams is another thing than bread in bags.
      await clear();
      await add({ name: "Already here" });
      await add({ name: "  PEAS, FROZEN ", quantity: 1, unit: "kg" });
      await add({ name: "Bread", quantity: 500, unit: "g" });
      const preview = await importFile(json.text, "application/json", w.owner, "?dryRun=true");
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      expect(preview.body).to.include({ shoppingEntriesAdded: 2 });
      expect(names(await read())).to.deep.equal(["Already here", "PEAS, FROZEN", "Bread"]);

      const imported = await importFile(json.text);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
      expect(imported.body).to.include({ shoppingEntriesAdded: 2 });
      const after = await read();
      expect(after.map((entry) => [entry.name, entry.quantity, entry.unit, entry.checked])).to.deep.equal([
        ["Already here", 1, "piece", false],
        ["PEAS, FROZEN", 1, "kg", false],
        ["Bread", 500, "g", false],
        ["=cmd()", 1, "piece", false],
        ["Bread", 2, "bag", false],
      ]);
      expect(positions(after)).to.deep.equal([0, 1, 2, 3, 4]);
      expect(after[3]?.categoryId).to.equal(category);
      // New ids: the file's belong to the list it was exported from.
      const exportedIds = new Set(exported.map((entry) => entry.id));
      expect(after.filter((entry) => exportedIds.has(entry.id))).to.deep.equal([]);
      expect(await read(w.member)).to.deep.equal(after);

      // The same list again, as JSON and as CSV: everything on it is on the list.
      for (const [type, body] of [
        ["application/json", json.text],
        ["text/csv", csv.text],
      ] as const) {
        const again = await importFile(body, type);
        expect(again.status, JSON.stringify(again.body)).to.equal(200);
        expect(again.body).to.include({ shoppingEntriesAdded: 0 });
      }
      expect(await read()).to.deep.equal(after);

      // CSV brings the list as JSON does: the checked peas, the formula text restored, in order.
      await clear();
      const fromCsv = await importFile(csv.text, "text/csv");
      expect(fromCsv.status, JSON.stringify(fromCsv.body)).to.equal(200);
      expect((await read()).map((entry) => [entry.name, entry.quantity, entry.unit, entry.checked])).to.deep.equal([
        ["Peas, frozen", 0.5, "kg", true],
        ["=cmd()", 1, "piece", false],
        ["Bread", 2, "bag", false],
      ]);

      // A record kind that is an object's own property name is an unknown kind, not a crash.
      for (const record of ["constructor", "__proto__", "toString"]) {
        const odd = await importFile(`record,id,name\r\n${record},abcdefgh1234,X\r\n`, "text/csv");
        expect(odd.status, `${record}: ${JSON.stringify(odd.body)}`).to.equal(400);
      }
    });

    it("an imported entry keeps the file's list order, and a category outside the household reads as none", async () => {
      const category = await aCategory();
      const foreign = await send("get", `/households/${w.outsiderHid}/categories`, w.outsider);
      const outsiderCategory = (foreign.body as { id: string }[])[0]!.id;
      const entry = (name: string, position: number, categoryId: string | null) => ({
        id: `entry${position}abcdefgh`,
        name,
        quantity: 1,
        unit: "piece",
        categoryId,
        checked: false,
        position,
      });
      const imported = await importFile(
        shoppingFile([entry("Third", 2, null), entry("First", 0, outsiderCategory), entry("Second", 1, category)]),
      );
      expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
      const after = await read();
      expect(after.map((each) => [each.name, each.categoryId])).to.deep.equal([
        ["First", null],
        ["Second", category],
        ["Third", null],
      ]);
      // The outsider's list and categories are as they were.
      const theirs = await send("get", `/households/${w.outsiderHid}/shopping-list`, w.outsider);
      expect(theirs.body).to.deep.equal([]);
    });

    it("refuses a file whose entries the list cannot take, or that are malformed, writing nothing of the file", async () => {
      for (let index = 0; index < SHOPPING_LIST_MAX_ENTRIES - 1; index++) {
        expect((await send("post", list(), w.owner, { name: `Entry ${index}` })).status).to.equal(201);
      }
      const before = await read();
      const item = {
        id: "importeditem1234",
        name: "Imported fish",
        quantity: 1,
        freezerId: w.freezerId,
        compartmentId: w.compartmentIds[0],
      };
      const tooMany = shoppingFile(
        [
          { id: "entryaabcdefgh", name: "Entry 3", position: 0 },
          { id: "entrybabcdefgh", name: "Milk", position: 1 },
          { id: "entrycabcdefgh", name: "Eggs", position: 2 },
        ],
        { items: [item] },
      );
      for (const query of ["?dryRun=true", ""]) {
        const refused = await importFile(tooMany, "application/json", w.owner, query);
        expectError(refused, 400);
        expect(refused.body.message).to.equal("The import has 1 invalid row; nothing was imported");
        expect(refused.body.details).to.deep.equal([
          {
            path: "shoppingList[2]",
            message: `the shopping list holds ${SHOPPING_LIST_MAX_ENTRIES - 1} entries and takes at most ${SHOPPING_LIST_MAX_ENTRIES}: the file adds 2, 1 too many`,
          },
        ]);
      }
      expect(await read()).to.deep.equal(before);
      const items = await send("get", `/households/${w.hid}/items?search=Imported`, w.owner);
      expect(items.status, JSON.stringify(items.body)).to.equal(200);
      expect(items.body.total).to.equal(0);
      // One fits: "Entry 3" is on the list already, Milk is added.
      const fits = await importFile(
        shoppingFile([
          { id: "entryaabcdefgh", name: "entry 3" },
          { id: "entrybabcdefgh", name: "Milk" },
        ]),
      );
      expect(fits.status, JSON.stringify(fits.body)).to.equal(200);
      expect(fits.body).to.include({ shoppingEntriesAdded: 1 });
      expect((await read()).at(-1)?.name).to.equal("Milk");
      await clear();

      const malformed = await importFile(
        shoppingFile([
          { id: "entryaabcdefgh", name: "", quantity: 1 },
          { id: "entrybabcdefgh", name: "Milk", quantity: -1 },
          { id: "entrycabcdefgh", name: "Milk", unit: "crate", checked: "maybe" },
          { id: "entrydabcdefgh", name: "Milk", owner: "someone" },
        ]),
      );
      expectError(malformed, 400);
      expect(malformed.body.details.map((detail: { path: string }) => detail.path)).to.deep.equal([
        "shoppingList[0]",
        "shoppingList[1]",
        "shoppingList[2]",
        "shoppingList[3]",
      ]);
      expect(malformed.body.details[2].message)
        .to.match(/unit: must be one of/)
        .and.match(/checked: must be true or false/);
      const tooLong = shoppingFile(
        Array.from({ length: SHOPPING_LIST_MAX_ENTRIES + 1 }, (_, index) => ({
          id: `entry${index}abcdefghij`,
          name: `E${index}`,
        })),
      );
      const refusedLong = await importFile(tooLong);
      expectError(refusedLong, 400);
      expect(refusedLong.body.details).to.deep.equal([
        {
          path: `shoppingList[${SHOPPING_LIST_MAX_ENTRIES}]`,
          message: `an import holds at most ${SHOPPING_LIST_MAX_ENTRIES} shopping-list entries`,
        },
      ]);
      expect(await read()).to.deep.equal([]);
      // Members read the list but only the owner imports.
      expectError(
        await importFile(shoppingFile([{ id: "entryaabcdefgh", name: "Milk" }]), "application/json", w.member),
        403,
      );
      expect(await read()).to.deep.equal([]);
    });

    it("every change reaches the household's event stream", async () => {
      const server: Server = createServer(w.app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      const stream = await openEventStream(`${base}/households/${w.hid}/events`, {
        Authorization: `Bearer ${w.owner.token}`,
      });
      try {
        expect(stream.status).to.equal(200);
        const entry = await add({ name: "Yoghurt" });
        const added = await stream.next((message) => message.event === "shopping_list.added");
        expect(added.data).to.deep.include({ type: "shopping_list.added", householdId: w.hid });
        expect((added.data as { data: { entry: Entry } }).data.entry).to.include({ id: entry.id, name: "Yoghurt" });
        expect((added.data as { actor: unknown }).actor).to.deep.equal({ kind: "user", id: w.member.id });
        await send("patch", `${list()}/${entry.id}`, w.member, { checked: true });
        const updated = await stream.next((message) => message.event === "shopping_list.updated");
        expect((updated.data as { data: { changes: string[] } }).data.changes).to.deep.equal(["checked"]);
        const stock = await send("post", `${list()}/checked/stock`, w.member, {
          freezerId: w.freezerId,
          compartmentId: w.compartmentIds[0],
        });
        const removed = await stream.next((message) => message.event === "shopping_list.removed");
        expect((removed.data as { data: unknown }).data).to.deep.equal({
          entryId: entry.id,
          name: "Yoghurt",
          stocked: { itemId: stock.body.items[0].id },
        });
        const created = await stream.next((message) => message.event === "item.created");
        expect((created.data as { data: { item: { id: string } } }).data.item.id).to.equal(stock.body.items[0].id);
        // An import's entries reach every member's open list as they are added.
        const imported = await importFile(shoppingFile([{ id: "entryaabcdefgh", name: "Imported milk" }]));
        expect(imported.status, JSON.stringify(imported.body)).to.equal(200);
        const importedAdded = await stream.next(
          (message) => message.event === "shopping_list.added",
          stream.messages.indexOf(added) + 1,
        );
        expect((importedAdded.data as { data: { entry: Entry } }).data.entry).to.include({ name: "Imported milk" });
        expect((importedAdded.data as { actor: unknown }).actor).to.deep.equal({ kind: "user", id: w.owner.id });
      } finally {
        stream.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  });
}
