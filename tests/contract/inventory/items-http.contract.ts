import { expect } from "chai";
import request from "supertest";
import type { Caller, ItemsHttpWorld } from "../../support/items-http.js";

type Method = "get" | "post" | "patch" | "delete";
type ItemState = "active" | "archived";

const ITEM_FIELDS = [
  // Added by issue 23 (barcodes, units and categories); the spec's fields are all still here.
  "barcode",
  "categoryId",
  "compartmentId",
  "createdAt",
  "createdBy",
  "deletedAt",
  "expiresAt",
  "freezerId",
  "householdId",
  "id",
  "name",
  "notes",
  "photo",
  "quantity",
  "storedAt",
  "unit",
  "updatedAt",
  "updatedBy",
];

/** Every item route, as the items router serves it, over one app. */
export function describeItemsHttpContract(label: string, build: () => Promise<ItemsHttpWorld>): void {
  describe(`items HTTP API: ${label}`, function () {
    this.timeout(30_000);
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
    const items = () => `/households/${w.hid}/items`;
    const validBody = (overrides: Record<string, unknown> = {}) => ({
      name: "Chicken thighs",
      quantity: 2,
      freezerId: w.freezerId,
      compartmentId: w.compartmentIds[0],
      ...overrides,
    });
    const createItem = async (overrides: Record<string, unknown> = {}, caller: Caller = w.member) => {
      const response = await send("post", items(), caller, validBody(overrides));
      expect(response.status, JSON.stringify(response.body)).to.equal(201);
      return response.body as Record<string, unknown> & { id: string };
    };
    const itemIn = async (state: ItemState) => {
      const item = await createItem({ name: `Fixture ${state}` });
      if (state === "archived") expect((await send("delete", `${items()}/${item.id}`, w.member)).status).to.equal(200);
      return item;
    };
    const expectError = (response: request.Response, status: number) => {
      expect(response.status, JSON.stringify(response.body)).to.equal(status);
      expect(response.body).to.include({ statusCode: status });
      expect(response.body.error).to.be.a("string");
      expect(response.body.message).to.be.a("string");
    };
    const expectDetails = (response: request.Response, path?: string) => {
      expectError(response, 400);
      expect(response.body.details, "details").to.be.an("array").that.is.not.empty;
      if (path !== undefined) expect(response.body.details.map((d: { path: string }) => d.path)).to.include(path);
    };

    describe("route × caller", () => {
      interface Row {
        route: string;
        method: Method;
        path: (iid: string) => string;
        state?: ItemState;
        body?: () => object;
        member: number;
        owner: number;
      }
      const rows: Row[] = [
        { route: "POST /items", method: "post", path: () => items(), body: () => validBody(), member: 201, owner: 201 },
        { route: "GET /items", method: "get", path: () => items(), member: 200, owner: 200 },
        { route: "GET /items/archive", method: "get", path: () => `${items()}/archive`, member: 200, owner: 200 },
        {
          route: "GET /items/:iid",
          method: "get",
          path: (iid) => `${items()}/${iid}`,
          state: "active",
          member: 200,
          owner: 200,
        },
        {
          route: "PATCH /items/:iid",
          method: "patch",
          path: (iid) => `${items()}/${iid}`,
          state: "active",
          body: () => ({ quantity: 3 }),
          member: 200,
          owner: 200,
        },
        {
          route: "DELETE /items/:iid",
          method: "delete",
          path: (iid) => `${items()}/${iid}`,
          state: "active",
          member: 200,
          owner: 200,
        },
        {
          route: "DELETE /items/:iid/permanent",
          method: "delete",
          path: (iid) => `${items()}/${iid}/permanent`,
          state: "archived",
          member: 403,
          owner: 200,
        },
        {
          route: "POST /items/:iid/restore",
          method: "post",
          path: (iid) => `${items()}/${iid}/restore`,
          state: "archived",
          member: 200,
          owner: 200,
        },
        {
          route: "GET /items/:iid/history",
          method: "get",
          path: (iid) => `${items()}/${iid}/history`,
          state: "active",
          member: 200,
          owner: 200,
        },
      ];
      const callers = ["anonymous", "outsider", "member", "owner"] as const;
      for (const row of rows) {
        for (const callerName of callers) {
          const expected = { anonymous: 401, outsider: 403, member: row.member, owner: row.owner }[callerName];
          it(`${row.route} as ${callerName} → ${expected}`, async () => {
            const item = row.state ? await itemIn(row.state) : undefined;
            const snapshot = async () => ({
              item: item ? (await send("get", `${items()}/${item.id}`, w.owner)).body : undefined,
              total: (await send("get", `${items()}?limit=1`, w.owner)).body.total,
            });
            const before = await snapshot();
            const caller = callerName === "anonymous" ? undefined : w[callerName];
            const response = await send(row.method, row.path(item?.id ?? ""), caller, row.body?.());
            expect(response.status, JSON.stringify(response.body)).to.equal(expected);
            if (expected >= 400) {
              expectError(response, expected);
              // A refused call changes nothing.
              expect(await snapshot()).to.deep.equal(before);
            }
          });
        }
      }

      it("rejects an invalid token with 401", async () => {
        const response = await request(w.app).get(`/api/v1${items()}`).set("Authorization", "Bearer not-a-token");
        expectError(response, 401);
      });
    });

    describe("OpenAPI", () => {
      it("documents every item route with its query, body and responses", async () => {
        const response = await request(w.app).get("/api/v1/openapi.json");
        expect(response.status).to.equal(200);
        const paths = response.body.paths as Record<string, Record<string, Record<string, unknown>>>;
        const expected: [string, string][] = [
          ["/households/{hid}/items", "post"],
          ["/households/{hid}/items", "get"],
          ["/households/{hid}/items/archive", "get"],
          ["/households/{hid}/items/{iid}", "get"],
          ["/households/{hid}/items/{iid}", "patch"],
          ["/households/{hid}/items/{iid}", "delete"],
          ["/households/{hid}/items/{iid}/permanent", "delete"],
          ["/households/{hid}/items/{iid}/restore", "post"],
          ["/households/{hid}/items/{iid}/history", "get"],
        ];
        for (const [path, method] of expected) expect(paths[path]?.[method], `${method} ${path}`).to.be.an("object");
        const listParameters = (paths["/households/{hid}/items"]!.get!.parameters as { name: string; in: string }[])
          .filter((parameter) => parameter.in === "query")
          .map((parameter) => parameter.name);
        expect(listParameters).to.include.members([
          "freezerId",
          "compartmentIds[]",
          "search",
          "expiresBefore",
          "page",
          "limit",
          "sort",
          "order",
        ]);
        expect(response.body.components.schemas).to.include.keys("FreezerItem", "ChangeLogEntry", "CreateItemRequest");
      });
    });

    describe("create", () => {
      it("returns 201 with exactly the FreezerItemResponse fields", async () => {
        const before = Date.now();
        const response = await send(
          "post",
          items(),
          w.member,
          validBody({ notes: "two bags", expiresAt: "2027-01-31T00:00:00.000Z" }),
        );
        expect(response.status).to.equal(201);
        const item = response.body;
        expect(Object.keys(item).sort()).to.deep.equal(ITEM_FIELDS);
        expect(item).to.include({
          householdId: w.hid,
          freezerId: w.freezerId,
          compartmentId: w.compartmentIds[0],
          name: "Chicken thighs",
          quantity: 2,
          notes: "two bags",
          expiresAt: "2027-01-31T00:00:00.000Z",
          deletedAt: null,
        });
        expect(item.id).to.match(/^[a-z][a-z0-9]{23}$/);
        expect(item.createdBy).to.deep.equal({ id: w.member.id, email: w.member.email, name: w.member.name });
        expect(item.updatedBy).to.deep.equal(item.createdBy);
        expect(Date.parse(item.storedAt)).to.be.at.least(before - 1000);
        expect(item.createdAt).to.equal(new Date(item.createdAt).toISOString());
        expect(item.updatedAt).to.equal(item.createdAt);
      });

      it("accepts fractional quantities, explicit storedAt, date-only and null optional fields", async () => {
        const item = await createItem({
          quantity: 0.5,
          storedAt: "2026-01-02T03:04:05+01:00",
          expiresAt: "2026-12-24",
          notes: null,
        });
        expect(item).to.include({
          quantity: 0.5,
          storedAt: "2026-01-02T02:04:05.000Z",
          expiresAt: "2026-12-24T00:00:00.000Z",
          notes: null,
        });
      });

      it("rejects a freezer of another household with 400 and details", async () => {
        const response = await send(
          "post",
          items(),
          w.member,
          validBody({ freezerId: w.outsiderFreezerId, compartmentId: w.outsiderCompartmentId }),
        );
        expectDetails(response, "freezerId");
      });

      it("rejects a compartment of another freezer with 400 and details", async () => {
        const response = await send("post", items(), w.member, validBody({ compartmentId: w.otherCompartmentId }));
        expectDetails(response, "compartmentId");
        // A compartmentId was given, so the answer must not ask for one.
        expect(response.body.details[0].message).to.equal(
          "This compartment is not in the given freezer; pick a compartment of that freezer",
        );
      });

      it("rejects a well-formed but unknown freezer with 400", async () => {
        expectDetails(
          await send("post", items(), w.member, validBody({ freezerId: "zzzzzzzzzzzzzzzzzzzzzzzz" })),
          "freezerId",
        );
      });
    });

    describe("list", () => {
      let names: string[];
      before(async () => {
        // A household of its own so other tests' items do not interfere.
        const household = await send("post", "/households", w.owner, { name: "List home" });
        const hid = household.body.id;
        const freezer = await send("post", `/households/${hid}/freezers`, w.owner, { name: "F" });
        const comp = async (name: string) =>
          (await send("post", `/households/${hid}/freezers/${freezer.body.id}/compartments`, w.owner, { name })).body
            .id;
        const [a, b, c] = [await comp("A"), await comp("B"), await comp("C")];
        listWorld = { hid, freezerId: freezer.body.id, compartments: [a, b, c] };
        const specs: [string, string, string | undefined, number][] = [
          ["Chicken thighs", a, "2026-03-01T00:00:00.000Z", 4],
          ["Crème fraîche", b, "2026-02-01T00:00:00.000Z", 1],
          ["Beef stew", c, undefined, 2],
          ["Peas", a, "2026-12-01T00:00:00.000Z", 3],
          ["Smoked salmon", b, undefined, 5],
        ];
        for (const [name, compartmentId, expiresAt, quantity] of specs) {
          const response = await send("post", `/households/${hid}/items`, w.owner, {
            name,
            quantity,
            freezerId: freezer.body.id,
            compartmentId,
            ...(expiresAt ? { expiresAt } : {}),
          });
          expect(response.status).to.equal(201);
        }
        const archived = await send("post", `/households/${hid}/items`, w.owner, {
          name: "Chicken soup",
          quantity: 1,
          freezerId: freezer.body.id,
          compartmentId: a,
        });
        await send("delete", `/households/${hid}/items/${archived.body.id}`, w.owner);
        names = specs.map(([name]) => name);
      });
      let listWorld: { hid: string; freezerId: string; compartments: string[] };
      const list = async (query: string, status = 200) => {
        const response = await send("get", `/households/${listWorld.hid}/items${query}`, w.owner);
        expect(response.status, JSON.stringify(response.body)).to.equal(status);
        return response;
      };
      const listNames = async (query: string) =>
        (await list(query)).body.data.map((item: { name: string }) => item.name);

      it("defaults to page 1, limit 20, newest first, active items only", async () => {
        const { body } = await list("");
        expect(Object.keys(body).sort()).to.deep.equal(["data", "limit", "page", "total"]);
        expect(body).to.include({ total: 5, page: 1, limit: 20 });
        expect(body.data.map((item: { name: string }) => item.name)).to.deep.equal([...names].reverse());
        expect(Object.keys(body.data[0]).sort()).to.deep.equal(ITEM_FIELDS);
      });

      it("pages with total counting all matches", async () => {
        const { body } = await list("?page=2&limit=2");
        expect(body).to.include({ total: 5, page: 2, limit: 2 });
        expect(body.data.map((item: { name: string }) => item.name)).to.deep.equal(["Beef stew", "Crème fraîche"]);
        expect((await list("?page=9&limit=2")).body).to.deep.include({ data: [], total: 5 });
      });

      it("accepts compartmentIds[] repeated, compartmentIds repeated and comma-separated", async () => {
        const [a, b] = listWorld.compartments;
        const expected = ["Chicken thighs", "Crème fraîche", "Peas", "Smoked salmon"];
        const sorted = "&sort=name&order=asc";
        expect(await listNames(`?compartmentIds[]=${a}&compartmentIds[]=${b}${sorted}`)).to.deep.equal(expected);
        expect(await listNames(`?compartmentIds%5B%5D=${a}&compartmentIds%5B%5D=${b}${sorted}`)).to.deep.equal(
          expected,
        );
        expect(await listNames(`?compartmentIds=${a}&compartmentIds=${b}${sorted}`)).to.deep.equal(expected);
        expect(await listNames(`?compartmentIds=${a},${b}${sorted}`)).to.deep.equal(expected);
        expect(await listNames(`?compartmentIds[]=${a}${sorted}`)).to.deep.equal(["Chicken thighs", "Peas"]);
      });

      it("filters by freezer and by expiresBefore (items without expiry excluded)", async () => {
        expect((await list(`?freezerId=${listWorld.freezerId}`)).body.total).to.equal(5);
        expect((await list(`?freezerId=${w.freezerId}`)).body.total).to.equal(0);
        expect(await listNames("?expiresBefore=2026-06-01T00:00:00.000Z&sort=expiresAt&order=asc")).to.deep.equal([
          "Crème fraîche",
          "Chicken thighs",
        ]);
        const [a] = listWorld.compartments;
        expect(await listNames(`?compartmentIds[]=${a}&expiresBefore=2026-06-01T00:00:00Z`)).to.deep.equal([
          "Chicken thighs",
        ]);
      });

      it("sorts by each field, items without expiry last both ways", async () => {
        expect(await listNames("?sort=name&order=asc")).to.deep.equal([
          "Beef stew",
          "Chicken thighs",
          "Crème fraîche",
          "Peas",
          "Smoked salmon",
        ]);
        expect(await listNames("?sort=quantity&order=desc")).to.deep.equal([
          "Smoked salmon",
          "Chicken thighs",
          "Peas",
          "Beef stew",
          "Crème fraîche",
        ]);
        const byExpiryAsc = await listNames("?sort=expiresAt&order=asc");
        expect(byExpiryAsc.slice(0, 3)).to.deep.equal(["Crème fraîche", "Chicken thighs", "Peas"]);
        const byExpiryDesc = await listNames("?sort=expiresAt&order=desc");
        expect(byExpiryDesc.slice(0, 3)).to.deep.equal(["Peas", "Chicken thighs", "Crème fraîche"]);
        expect(byExpiryDesc.slice(3).sort()).to.deep.equal(["Beef stew", "Smoked salmon"]);
        expect(await listNames("?sort=createdAt&order=asc")).to.deep.equal(names);
        expect((await listNames("?sort=storedAt")).length).to.equal(5);
      });

      it("searches by word prefix, case- and accent-insensitively, all words required", async () => {
        expect(await listNames("?search=chick")).to.deep.equal(["Chicken thighs"]);
        expect(await listNames("?search=CREME")).to.deep.equal(["Crème fraîche"]);
        expect(await listNames("?search=cr%C3%A8me%20fra")).to.deep.equal(["Crème fraîche"]);
        expect(await listNames("?search=smoked%20salm")).to.deep.equal(["Smoked salmon"]);
        expect(await listNames("?search=smoked%20beef")).to.deep.equal([]);
        expect(await listNames("?search=%25")).to.deep.equal([]);
        expect(await listNames("?search=_")).to.deep.equal([]);
        expect(await listNames("?search=%27%22%26%7C!%3A*")).to.deep.equal([]);
        expect(await listNames("?search=peas%27")).to.deep.equal(["Peas"]);
        expect((await list("?search=chicken")).body.total).to.equal(1);
      });

      it("finds words inside compounds after whole words and beginnings, and sorts names by their letters", async () => {
        // A household of its own: the list world above keeps its five items.
        const hid = (await send("post", "/households", w.owner, { name: "Tiefkühltruhe" })).body.id;
        const freezerId = (await send("post", `/households/${hid}/freezers`, w.owner, { name: "Keller" })).body.id;
        const compartmentId = (
          await send("post", `/households/${hid}/freezers/${freezerId}/compartments`, w.owner, { name: "Oben" })
        ).body.id;
        for (const name of ["Vanilleeis", "Himbeeren", "Eiswürfel", "Fischstäbchen", "Eis am Stiel", "Hähnchen"]) {
          const created = await send("post", `/households/${hid}/items`, w.owner, {
            name,
            quantity: 1,
            freezerId,
            compartmentId,
          });
          expect(created.status).to.equal(201);
        }
        const namesOf = async (query: string) => {
          const response = await send("get", `/households/${hid}/items${query}`, w.owner);
          expect(response.status, JSON.stringify(response.body)).to.equal(200);
          return response.body.data.map((item: { name: string }) => item.name);
        };
        expect(await namesOf("?search=eis")).to.deep.equal(["Eis am Stiel", "Eiswürfel", "Vanilleeis"]);
        expect(await namesOf(`?search=${encodeURIComponent("stäbchen")}`)).to.deep.equal(["Fischstäbchen"]);
        expect(await namesOf("?search=STABCHEN")).to.deep.equal(["Fischstäbchen"]);
        expect(await namesOf("?search=ei")).to.deep.equal(["Eis am Stiel", "Eiswürfel"]);
        expect(await namesOf("?sort=name&order=asc")).to.deep.equal([
          "Eis am Stiel",
          "Eiswürfel",
          "Fischstäbchen",
          "Hähnchen",
          "Himbeeren",
          "Vanilleeis",
        ]);
      });

      it("rejects bad query parameters with 400 and details", async () => {
        for (const query of [
          "?limit=101",
          "?limit=0",
          "?limit=abc",
          "?page=0",
          "?page=-1",
          "?page=1.5",
          "?sort=price",
          "?order=up",
          "?expiresBefore=tomorrow",
          "?freezerId=NOT-AN-ID",
          "?compartmentIds[]=bad!id",
          "?color=red",
          "?limit=5&foo=bar",
          `?search=${"x".repeat(201)}`,
          "?search=a&search=b",
          "?limit=1e2",
          "?page=0x10",
          "?limit=%205",
          "?limit=5%20",
          "?page=+2",
          "?limit=",
        ]) {
          const response = await list(query, 400);
          expectDetails(response);
        }
        expectDetails(await list("?unknown=1", 400), "unknown");
        expectDetails(await list("?limit=101", 400), "limit");
      });

      it("says a repeated number parameter was repeated, not that it is no number", async () => {
        const response = await list("?page=1&page=2", 400);
        expect(response.body.details).to.deep.equal([
          { path: "page", message: "was given more than once; give it once" },
        ]);
      });

      it("pages and searches the archive like the item list when asked", async () => {
        const archive = (query: string) => send("get", `/households/${listWorld.hid}/items/archive${query}`, w.owner);
        const paged = await archive("?page=1&limit=1");
        expect(paged.status).to.equal(200);
        expect(paged.body).to.include({ total: 1, page: 1, limit: 1 });
        expect(paged.body.data.map((item: { name: string }) => item.name)).to.deep.equal(["Chicken soup"]);
        expect((await archive("?search=soup")).body).to.deep.include({ total: 1, page: 1, limit: 20 });
        expect((await archive("?search=peas")).body).to.deep.include({ data: [], total: 0 });
        expect((await archive("?page=2")).body).to.deep.include({ data: [], total: 1, page: 2 });
        expect((await archive("")).body)
          .to.be.an("array")
          .with.lengthOf(1);
      });

      it("rejects bad query parameters on the archive list", async () => {
        for (const query of ["?page=0", "?limit=101", "?limit=1e2", "?sort=name", "?freezerId=x", "?page=1&page=2"]) {
          expectDetails(await send("get", `/households/${listWorld.hid}/items/archive${query}`, w.owner));
        }
      });
    });

    describe("single item, archive and restore", () => {
      it("gets an item, and 404 for another household's item or an unknown id", async () => {
        const item = await createItem();
        const response = await send("get", `${items()}/${item.id}`, w.member);
        expect(response.status).to.equal(200);
        expect(response.body).to.deep.equal(item);
        expectError(await send("get", `/households/${w.outsiderHid}/items/${item.id}`, w.outsider), 404);
        expectError(await send("get", `${items()}/zzzzzzzzzzzzzzzzzzzzzzzz`, w.member), 404);
      });

      it("archives with a message, then 409 on archive, PATCH; GET still shows it", async () => {
        const item = await createItem();
        const archive = await send("delete", `${items()}/${item.id}`, w.member);
        expect(archive.status).to.equal(200);
        expect(archive.body).to.have.property("message").that.is.a("string");
        const again = await send("delete", `${items()}/${item.id}`, w.member);
        expectError(again, 409);
        expect(again.body.message).to.match(/already archived.*DELETE \/households\/:hid\/items\/:iid\/permanent/);
        const patched = await send("patch", `${items()}/${item.id}`, w.member, { quantity: 9 });
        expectError(patched, 409);
        expect(patched.body.message).to.match(/restore it/);
        const got = await send("get", `${items()}/${item.id}`, w.member);
        expect(got.status).to.equal(200);
        expect(got.body.deletedAt).to.be.a("string");
        expect(got.body.quantity).to.equal(item.quantity);
        const list = await send("get", `${items()}?limit=100`, w.member);
        expect(list.body.data.map((i: { id: string }) => i.id)).to.not.include(item.id);
      });

      it("lists the archive newest first as a plain array", async () => {
        const first = await itemIn("archived");
        const second = await itemIn("archived");
        const response = await send("get", `${items()}/archive`, w.member);
        expect(response.status).to.equal(200);
        expect(response.body).to.be.an("array");
        const ids = response.body.map((item: { id: string }) => item.id);
        expect(ids.indexOf(second.id)).to.be.lessThan(ids.indexOf(first.id));
        expect(response.body.every((item: { deletedAt: string | null }) => item.deletedAt !== null)).to.equal(true);
        const times = response.body.map((item: { deletedAt: string }) => Date.parse(item.deletedAt));
        expect([...times].sort((a, b) => b - a)).to.deep.equal(times);
      });

      it("permanent delete: 400 while active, 200 once archived, then 404", async () => {
        const item = await createItem();
        expectError(await send("delete", `${items()}/${item.id}/permanent`, w.owner), 400);
        expect((await send("get", `${items()}/${item.id}`, w.owner)).body.deletedAt).to.equal(null);
        await send("delete", `${items()}/${item.id}`, w.member);
        const gone = await send("delete", `${items()}/${item.id}/permanent`, w.owner);
        expect(gone.status).to.equal(200);
        expect(gone.body.message).to.be.a("string");
        expectError(await send("get", `${items()}/${item.id}`, w.owner), 404);
        expectError(await send("delete", `${items()}/${item.id}/permanent`, w.owner), 404);
      });

      it("restores an archived item; restoring an active one is 409", async () => {
        const item = await itemIn("archived");
        const restored = await send("post", `${items()}/${item.id}/restore`, w.member);
        expect(restored.status).to.equal(200);
        expect(Object.keys(restored.body).sort()).to.deep.equal(ITEM_FIELDS);
        expect(restored.body.deletedAt).to.equal(null);
        expectError(await send("post", `${items()}/${item.id}/restore`, w.member), 409);
        const list = await send("get", `${items()}?limit=100`, w.member);
        expect(list.body.data.map((i: { id: string }) => i.id)).to.include(item.id);
      });

      it("is 404 for every item route given another household's item id", async () => {
        const foreign = await send("post", `/households/${w.outsiderHid}/items`, w.outsider, {
          name: "Theirs",
          quantity: 1,
          freezerId: w.outsiderFreezerId,
          compartmentId: w.outsiderCompartmentId,
        });
        expect(foreign.status).to.equal(201);
        const iid = foreign.body.id;
        expectError(await send("get", `${items()}/${iid}`, w.owner), 404);
        expectError(await send("patch", `${items()}/${iid}`, w.owner, { quantity: 2 }), 404);
        expectError(await send("delete", `${items()}/${iid}`, w.owner), 404);
        expectError(await send("delete", `${items()}/${iid}/permanent`, w.owner), 404);
        expectError(await send("post", `${items()}/${iid}/restore`, w.owner), 404);
        expectError(await send("get", `${items()}/${iid}/history`, w.owner), 404);
        const theirs = await send("get", `/households/${w.outsiderHid}/items/${iid}`, w.outsider);
        expect(theirs.body).to.deep.include({ quantity: 1, deletedAt: null });
      });
    });

    describe("update and history", () => {
      it("changes fields, sets updatedBy, logs each really changed field", async () => {
        const item = await createItem({ quantity: 1, name: "Peas" });
        const response = await send("patch", `${items()}/${item.id}`, w.owner, {
          name: "Peas",
          quantity: 2.5,
          expiresAt: "2026-12-24T00:00:00Z",
        });
        expect(response.status).to.equal(200);
        expect(Object.keys(response.body).sort()).to.deep.equal(ITEM_FIELDS);
        expect(response.body).to.include({ quantity: 2.5, expiresAt: "2026-12-24T00:00:00.000Z", name: "Peas" });
        expect(response.body.updatedBy).to.deep.equal({ id: w.owner.id, email: w.owner.email, name: w.owner.name });
        expect(response.body.createdBy.id).to.equal(w.member.id);
        const history = await send("get", `${items()}/${item.id}/history`, w.member);
        expect(history.status).to.equal(200);
        expect(history.body).to.have.length(2);
        expect(Object.keys(history.body[0]).sort()).to.deep.equal([
          "changedAt",
          "changedBy",
          "fieldName",
          "id",
          "itemId",
          "newValue",
          "oldValue",
        ]);
        expect(history.body.map((e: Record<string, unknown>) => [e.fieldName, e.oldValue, e.newValue])).to.deep.equal([
          ["expiresAt", null, "2026-12-24T00:00:00.000Z"],
          ["quantity", "1", "2.5"],
        ]);
        expect(history.body[0].changedAt).to.equal(history.body[1].changedAt);
        expect(history.body[0].changedBy).to.deep.equal({ id: w.owner.id, email: w.owner.email, name: w.owner.name });
        expect(history.body[0].itemId).to.equal(item.id);
      });

      it("orders history newest first; clearing a value logs null", async () => {
        const item = await createItem({ notes: "a" });
        await send("patch", `${items()}/${item.id}`, w.member, { notes: "b" });
        await send("patch", `${items()}/${item.id}`, w.member, { notes: null });
        const history = (await send("get", `${items()}/${item.id}/history`, w.member)).body;
        expect(history.map((e: Record<string, unknown>) => [e.oldValue, e.newValue])).to.deep.equal([
          ["b", null],
          ["a", "b"],
        ]);
      });

      it("moves an item to another freezer with a compartment of that freezer", async () => {
        const item = await createItem();
        const moved = await send("patch", `${items()}/${item.id}`, w.member, {
          freezerId: w.otherFreezerId,
          compartmentId: w.otherCompartmentId,
        });
        expect(moved.status).to.equal(200);
        expect(moved.body).to.include({ freezerId: w.otherFreezerId, compartmentId: w.otherCompartmentId });
        const freezerOnly = await send("patch", `${items()}/${item.id}`, w.member, { freezerId: w.freezerId });
        expectDetails(freezerOnly, "compartmentId");
        expect(freezerOnly.body.details[0].message).to.match(/give a compartmentId of the new freezer/);
        expectDetails(
          await send("patch", `${items()}/${item.id}`, w.member, { compartmentId: w.outsiderCompartmentId }),
          "compartmentId",
        );
        expectDetails(
          await send("patch", `${items()}/${item.id}`, w.member, {
            freezerId: w.outsiderFreezerId,
            compartmentId: w.outsiderCompartmentId,
          }),
          "freezerId",
        );
      });

      it("an empty PATCH changes nothing", async () => {
        const item = await createItem();
        const response = await send("patch", `${items()}/${item.id}`, w.member, {});
        expect(response.status).to.equal(200);
        expect(response.body).to.deep.equal(item);
        expect((await send("get", `${items()}/${item.id}/history`, w.member)).body).to.deep.equal([]);
      });
    });

    describe("freezers and households holding items", () => {
      it("refuses to delete a freezer or compartment that holds an item, archived ones included", async () => {
        const freezer = await send("post", `/households/${w.hid}/freezers`, w.owner, { name: "Spare" });
        const compartment = await send(
          "post",
          `/households/${w.hid}/freezers/${freezer.body.id}/compartments`,
          w.owner,
          {
            name: "Only",
          },
        );
        const item = await createItem({ freezerId: freezer.body.id, compartmentId: compartment.body.id });
        await send("delete", `${items()}/${item.id}`, w.member);
        const compartmentPath = `/households/${w.hid}/freezers/${freezer.body.id}/compartments/${compartment.body.id}`;
        expectError(await send("delete", compartmentPath, w.owner), 409);
        expectError(await send("delete", `/households/${w.hid}/freezers/${freezer.body.id}`, w.owner), 409);
        expect((await send("delete", `${items()}/${item.id}/permanent`, w.owner)).status).to.equal(200);
        expect((await send("delete", `/households/${w.hid}/freezers/${freezer.body.id}`, w.owner)).status).to.equal(
          200,
        );
      });

      it("deleting a household removes its items and their history", async () => {
        const household = await send("post", "/households", w.owner, { name: "Doomed" });
        const hid = household.body.id;
        const freezer = await send("post", `/households/${hid}/freezers`, w.owner, { name: "F" });
        const compartment = await send("post", `/households/${hid}/freezers/${freezer.body.id}/compartments`, w.owner, {
          name: "C",
        });
        const item = await send("post", `/households/${hid}/items`, w.owner, {
          name: "Soup",
          quantity: 1,
          freezerId: freezer.body.id,
          compartmentId: compartment.body.id,
        });
        await send("patch", `/households/${hid}/items/${item.body.id}`, w.owner, { quantity: 2 });
        const archived = await send("post", `/households/${hid}/items`, w.owner, {
          name: "Old soup",
          quantity: 1,
          freezerId: freezer.body.id,
          compartmentId: compartment.body.id,
        });
        await send("delete", `/households/${hid}/items/${archived.body.id}`, w.owner);
        expect((await send("delete", `/households/${hid}`, w.owner)).status).to.equal(200);
        expectError(await send("get", `/households/${hid}/items/${item.body.id}`, w.owner), 403);
      });
    });

    describe("bad input changes nothing", () => {
      const badCreates: [string, unknown, string?][] = [
        ["missing name", { quantity: 1 }, "name"],
        ["missing quantity", { name: "x" }, "quantity"],
        ["missing freezerId", { freezerId: undefined }, "freezerId"],
        ["missing compartmentId", { compartmentId: undefined }, "compartmentId"],
        ["name not a string", { name: 5 }, "name"],
        ["empty name", { name: "   " }, "name"],
        ["overlong name", { name: "x".repeat(201) }, "name"],
        ["overlong notes", { notes: "x".repeat(2001) }, "notes"],
        ["quantity as string", { quantity: "2" }, "quantity"],
        ["zero quantity", { quantity: 0 }, "quantity"],
        ["negative quantity", { quantity: -1 }, "quantity"],
        ["huge quantity", { quantity: 1e12 }, "quantity"],
        ["quantity null", { quantity: null }, "quantity"],
        ["malformed freezer id", { freezerId: "../etc" }, "freezerId"],
        ["freezer id not a string", { freezerId: 12 }, "freezerId"],
        ["bad storedAt", { storedAt: "yesterday" }, "storedAt"],
        ["storedAt as number", { storedAt: 1700000000000 }, "storedAt"],
        ["impossible date", { expiresAt: "2026-02-30T00:00:00Z" }, "expiresAt"],
        ["year 0", { storedAt: "0000-06-01" }, "storedAt"],
        ["offset into year 0", { expiresAt: "0001-01-01T00:30:00+01:00" }, "expiresAt"],
        ["year 10000 through an offset", { expiresAt: "9999-12-31T23:30:00-01:00" }, "expiresAt"],
        ["NUL character in notes", { notes: "two\u0000bags" }, "notes"],
        ["NUL character in name", { name: "Pe\u0000as" }, "name"],
        ["unknown field", { colour: "red" }, "colour"],
        ["server-owned field", { householdId: "abcdefghijkl" }, "householdId"],
      ];

      for (const [label, overrides, path] of badCreates) {
        it(`POST: ${label} → 400`, async () => {
          const before = (await send("get", `${items()}?limit=1`, w.member)).body.total;
          const body =
            label.startsWith("missing name") || label.startsWith("missing quantity")
              ? {
                  ...validBody(),
                  ...(overrides as object),
                  ...(label === "missing name" ? { name: undefined } : { quantity: undefined }),
                }
              : validBody(overrides as Record<string, unknown>);
          const response = await send("post", items(), w.member, JSON.parse(JSON.stringify(body)));
          expectDetails(response, path);
          expect((await send("get", `${items()}?limit=1`, w.member)).body.total).to.equal(before);
        });
      }

      it("POST: a non-object body → 400", async () => {
        for (const body of [[1, 2], "text", 42]) {
          const response = await request(w.app)
            .post(`/api/v1${items()}`)
            .set("Authorization", `Bearer ${w.member.token}`)
            .set("Content-Type", "application/json")
            .send(JSON.stringify(body));
          expectError(response, 400);
        }
      });

      it("POST and PATCH: malformed JSON → 400", async () => {
        const item = await createItem();
        for (const [method, path] of [
          ["post", items()],
          ["patch", `${items()}/${item.id}`],
        ] as const) {
          const response = await request(w.app)
            [method](`/api/v1${path}`)
            .set("Authorization", `Bearer ${w.member.token}`)
            .set("Content-Type", "application/json")
            .send('{"name": "x",');
          expectError(response, 400);
          expect(response.body.details).to.be.an("array");
        }
        expect((await send("get", `${items()}/${item.id}`, w.member)).body).to.deep.equal(item);
      });

      const badPatches: [string, object, string][] = [
        ["quantity as string", { quantity: "3" }, "quantity"],
        ["zero quantity", { quantity: 0 }, "quantity"],
        ["null name", { name: null }, "name"],
        ["empty name", { name: "" }, "name"],
        ["overlong name", { name: "y".repeat(201) }, "name"],
        ["unknown field", { deletedAt: null }, "deletedAt"],
        ["malformed compartment id", { compartmentId: "Robert'); DROP TABLE" }, "compartmentId"],
        ["bad expiresAt", { expiresAt: "31/12/2026" }, "expiresAt"],
        ["notes as number", { notes: 7 }, "notes"],
      ];
      for (const [label, body, path] of badPatches) {
        it(`PATCH: ${label} → 400 and the item and its history unchanged`, async () => {
          const item = await createItem();
          const response = await send("patch", `${items()}/${item.id}`, w.member, body);
          expectDetails(response, path);
          expect((await send("get", `${items()}/${item.id}`, w.member)).body).to.deep.equal(item);
          expect((await send("get", `${items()}/${item.id}/history`, w.member)).body).to.deep.equal([]);
        });
      }

      it("unknown query parameters → 400 on every item route", async () => {
        const item = await createItem();
        for (const [method, path, body] of [
          ["post", `${items()}?x=1`, validBody()],
          ["get", `${items()}/archive?x=1`],
          ["get", `${items()}/${item.id}?x=1`],
          ["patch", `${items()}/${item.id}?x=1`, { quantity: 9 }],
          ["delete", `${items()}/${item.id}?x=1`],
          ["delete", `${items()}/${item.id}/permanent?x=1`],
          ["post", `${items()}/${item.id}/restore?x=1`],
          ["get", `${items()}/${item.id}/history?x=1`],
        ] as [Method, string, object?][]) {
          expectDetails(await send(method, path, w.owner, body), "x");
        }
        expect((await send("get", `${items()}/${item.id}`, w.owner)).body).to.deep.equal(item);
      });

      it("fields in a body on item routes that take none → 400, item unchanged", async () => {
        const item = await createItem();
        for (const [method, path] of [
          ["get", items()],
          ["get", `${items()}/archive`],
          ["get", `${items()}/${item.id}`],
          ["delete", `${items()}/${item.id}`],
          ["delete", `${items()}/${item.id}/permanent`],
          ["post", `${items()}/${item.id}/restore`],
          ["get", `${items()}/${item.id}/history`],
        ] as [Method, string][]) {
          expectDetails(await send(method, path, w.owner, { force: true }), "force");
        }
        expect((await send("get", `${items()}/${item.id}`, w.owner)).body).to.deep.equal(item);
      });

      it("a NUL character in the search → 400, not a database error", async () => {
        expectDetails(await send("get", `${items()}?search=chick%00en`, w.owner), "search");
      });

      it("malformed ids in the path → 400 with details on every item route", async () => {
        const bad = "NOT_AN_ID";
        for (const [method, path, body] of [
          ["get", `${items()}/${bad}`],
          ["patch", `${items()}/${bad}`, { quantity: 2 }],
          ["delete", `${items()}/${bad}`],
          ["delete", `${items()}/${bad}/permanent`],
          ["post", `${items()}/${bad}/restore`],
          ["get", `${items()}/${bad}/history`],
        ] as [Method, string, object?][]) {
          const response = await send(method, path, w.owner, body);
          expectDetails(response, "iid");
        }
        expectError(await send("get", "/households/BAD_HOUSEHOLD/items", w.owner), 400);
      });
    });
  });
}
