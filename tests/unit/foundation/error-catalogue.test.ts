import { readFileSync } from "node:fs";
import { expect } from "chai";
import express from "express";
import request from "supertest";
import { ERROR_CODES_DOC, renderErrorCodes } from "../../../scripts/error-codes.js";
import { engineErrorHandler } from "../../../src/adapters/http/engine/engine-errors.js";
import { ERROR_STATUS } from "../../../src/adapters/http/error-status.js";
import { createErrorHandler } from "../../../src/adapters/http/inventory/http-errors.js";
import { ServiceNotFoundError } from "../../../src/application/automation/service-registry.js";
import { ItemNotFoundError } from "../../../src/domain/inventory/item-errors.js";
import { PhotoProcessingUnavailableError } from "../../../src/domain/inventory/item-photo.js";
import { ERROR_CODES } from "../../../src/domain/shared/error-codes.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";

describe("error catalogue", () => {
  it("gives every code exactly one status, and no status to an unknown code", () => {
    expect(Object.keys(ERROR_STATUS).sort()).to.deep.equal(Object.keys(ERROR_CODES).sort());
    for (const status of Object.values(ERROR_STATUS)) expect(status).to.be.within(400, 599);
  });

  it("cannot be changed at run time", () => {
    expect(Object.isFrozen(ERROR_STATUS)).to.equal(true);
    expect(Object.isFrozen(ERROR_CODES)).to.equal(true);
  });

  it("docs/error-codes.md is what `npm run docs:errors` generates", () => {
    expect(readFileSync(ERROR_CODES_DOC, "utf8"), "run `npm run docs:errors`").to.equal(renderErrorCodes());
  });

  it("maps a domain error to the same status on both surfaces", async () => {
    const failing = (error: Error) => {
      const app = express();
      app.get("/", () => {
        throw error;
      });
      return app;
    };
    const inventory = failing(new ItemNotFoundError());
    inventory.use(createErrorHandler(new MemoryLogger()));
    const engine = failing(new ServiceNotFoundError("weather", []));
    engine.use(engineErrorHandler(new MemoryLogger()));

    const fromInventory = await request(inventory).get("/");
    expect(fromInventory.status).to.equal(404);
    expect(fromInventory.body).to.deep.equal({ statusCode: 404, error: "Not Found", message: "Item not found" });
    const fromEngine = await request(engine).get("/");
    expect(fromEngine.status).to.equal(404);
    expect(fromEngine.body.error).to.equal("Not Found");
    expect(fromEngine.body.message).to.match(/"weather" is not registered/);
  });

  it("logs a domain error that is the server's failing (5xx), not one that is the client's", async () => {
    const logger = new MemoryLogger();
    const app = express();
    app.get("/photo", () => {
      throw new PhotoProcessingUnavailableError("the image library (sharp) cannot be loaded: no binary");
    });
    app.get("/item", () => {
      throw new ItemNotFoundError();
    });
    app.use(createErrorHandler(logger));
    const photo = await request(app).get("/photo");
    expect(photo.status).to.equal(503);
    expect(photo.body.message).to.match(/cannot be loaded: no binary/);
    expect((await request(app).get("/item")).status).to.equal(404);
    expect(logger.entries.map((entry) => [entry.level, entry.msg])).to.deep.equal([
      ["error", "Photos cannot be processed on this server: the image library (sharp) cannot be loaded: no binary"],
    ]);
  });
});
