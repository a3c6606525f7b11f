import { expect } from "chai";
import request from "supertest";
import { ERROR_STATUS } from "../../../../src/adapters/http/error-status.js";
import type { ErrorCode } from "../../../../src/domain/shared/error-codes.js";
import { routeAccessTable } from "./access-table.js";
import { buildWorld, CALLERS } from "./inventory-http-world.js";
import { seedItems } from "./items-rows.js";
import { seedShoppingList } from "./shopping-list-rows.js";

/** "GET /households/:hid/items/:iid (archived)" → "get /households/{hid}/items/{iid}". */
function documentedRoute(route: string): string {
  const [method, path] = route.replace(/\s*\(.*\)$/, "").split(" ");
  return `${method!.toLowerCase()} ${path!.replace(/:(\w+)/g, "{$1}")}`;
}

describe("inventory HTTP: route × caller → status", () => {
  for (const row of routeAccessTable) {
    describe(row.route, () => {
      for (const caller of CALLERS) {
        if (row.stream && row.expect[caller] === 200) continue;
        it(`${caller} → ${row.expect[caller]}`, async () => {
          const world = await buildWorld();
          await seedItems(world);
          await seedShoppingList(world);
          let call = request(world.app)
            [row.method](row.path(world))
            .set(world.auth(caller))
            .set(row.headers ?? {});
          if (row.body) call = call.send(row.body(world, caller) as object);
          const response = await call;
          expect(response.status, JSON.stringify(response.body)).to.equal(row.expect[caller]);
          // Swagger UI is a web page; everything under /api/v1 answers JSON.
          if (row.path(world).startsWith("/api/v1/"))
            expect(response.headers["content-type"]).to.match(/application\/json/);
          if (response.status >= 400) {
            expect(response.body).to.include({ statusCode: response.status });
            expect(response.body.error).to.be.a("string");
            expect(response.body.message).to.be.a("string");
            // Every refusal names its code, and the code its status (docs/error-codes.md).
            const code = response.headers["hearth-error-code"] as ErrorCode | undefined;
            expect(code, "Hearth-Error-Code").to.be.oneOf(Object.keys(ERROR_STATUS));
            expect(ERROR_STATUS[code as ErrorCode], code).to.equal(response.status);
          }
        });
      }
    });
  }

  it("has a row for every route of the OpenAPI document", async () => {
    const world = await buildWorld();
    const document = (await request(world.app).get("/api/v1/openapi.json")).body as { paths: Record<string, object> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    const covered = new Set(routeAccessTable.map((row) => documentedRoute(row.route)));
    expect(documented.filter((route) => !covered.has(route))).to.deep.equal([]);
    expect(documented.length).to.be.at.least(40);
  });
});
