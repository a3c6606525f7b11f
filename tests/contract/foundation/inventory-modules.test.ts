import { expect } from "chai";
import { MemoryInventoryStore } from "../../../src/adapters/persistence/memory-inventory-store.js";
import { createInventoryContainer, resolveInventoryPorts } from "../../../src/composition/inventory-api.js";
import {
  MEMORY_STORE,
  memoryModule,
  pgliteModule,
  postgresModule,
  STORAGE_CHECK,
} from "../../../src/composition/inventory-modules.js";
import { ITEM_PLACEMENT_LOOKUP } from "../../../src/ports/item-placement.js";
import { ITEM_REPOSITORY } from "../../../src/ports/item-repository.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

const options = { jwtSecret: "container-test-secret-0123456789abcdef", config: { JWT_ACCESS_TTL: 900 } };

describe("inventory registration modules", () => {
  it("the in-memory module registers every port the use cases need, over one store", async () => {
    const store = new MemoryInventoryStore();
    const scope = createInventoryContainer(memoryModule(store), options);
    const ports = resolveInventoryPorts(scope);
    for (const [name, port] of Object.entries(ports)) expect(port, name).to.not.equal(undefined);
    expect(scope.resolve(MEMORY_STORE)).to.equal(store);
    expect(scope.isRegistered(ITEM_REPOSITORY)).to.equal(true);
    expect(scope.isRegistered(ITEM_PLACEMENT_LOOKUP)).to.equal(true);
    expect(await scope.resolve<() => Promise<boolean>>(STORAGE_CHECK)()).to.equal(true);
  });

  describe("knex on PGlite", () => {
    const database = useMigratedDatabase("pglite");

    it("registers the knex repositories and checks the database for /health", async () => {
      const scope = createInventoryContainer(pgliteModule(database()), options);
      const ports = resolveInventoryPorts(scope);
      expect(ports.users.constructor.name).to.equal("KnexUserRepository");
      expect(await scope.resolve<() => Promise<boolean>>(STORAGE_CHECK)()).to.equal(true);
    });

    it("refuses to pass PGlite off as PostgreSQL", () => {
      expect(() => postgresModule(database())).to.throw(/PostgreSQL/);
    });
  });
});
