import { expect } from "chai";
import request from "supertest";
import { accessTable } from "./access-table.js";
import { buildWorld, CALLERS } from "./inventory-http-world.js";

describe("inventory HTTP: route × caller → status", () => {
  for (const row of accessTable) {
    describe(row.route, () => {
      for (const caller of CALLERS) {
        it(`${caller} → ${row.expect[caller]}`, async () => {
          const world = await buildWorld();
          let call = request(world.app)[row.method](row.path(world)).set(world.auth(caller));
          if (row.body) call = call.send(row.body(world, caller) as object);
          const response = await call;
          expect(response.status, JSON.stringify(response.body)).to.equal(row.expect[caller]);
          expect(response.headers["content-type"]).to.match(/application\/json/);
          if (response.status >= 400) {
            expect(response.body).to.include({ statusCode: response.status });
            expect(response.body.error).to.be.a("string");
            expect(response.body.message).to.be.a("string");
          }
        });
      }
    });
  }
});
