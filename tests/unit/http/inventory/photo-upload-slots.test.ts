import { expect } from "chai";
import express from "express";
import request from "supertest";
import {
  createItemPhotoRouter,
  PHOTO_BODY_BUDGET_BYTES,
  photoUploadSlots,
} from "../../../../src/adapters/http/inventory/item-photo-routes.js";
import { createErrorHandler } from "../../../../src/adapters/http/inventory/http-errors.js";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";
import type { ItemPhotoUseCases } from "../../../../src/application/inventory/items/item-photo-use-cases.js";
import { ItemNotFoundError } from "../../../../src/domain/inventory/item-errors.js";

const MB = 1024 * 1024;
const PATH = "/households/household0000000000000001/items/item00000000000000000001/photo";

/** Event-loop turns, enough for a body already in the socket to be read if nothing holds it back. */
async function turns(count: number): Promise<void> {
  for (let index = 0; index < count; index++) await new Promise((resolve) => setImmediate(resolve));
}

describe("photo uploads: bodies in memory at once", () => {
  it("allows as many bodies as the budget holds at the upload limit, and never fewer than two", () => {
    expect(photoUploadSlots(10 * MB)).to.equal(4);
    expect(photoUploadSlots(50 * MB)).to.equal(2);
    expect(photoUploadSlots(64 * 1024)).to.equal(PHOTO_BODY_BUDGET_BYTES / (64 * 1024));
  });

  it("reads a third upload's body only once one of the two before it is done", async () => {
    let calls = 0;
    let reads = 0;
    const releases: (() => void)[] = [];
    let allCalled = () => {};
    const called = new Promise<void>((resolve) => {
      allCalled = resolve;
    });
    const useCases = {
      setItemPhoto: {
        async execute(input: { image(): Promise<Uint8Array> }) {
          if (++calls === 3) allCalled();
          await input.image();
          reads++;
          // Held until the test lets it go, as a slow decode would hold it.
          await new Promise<void>((resolve) => releases.push(resolve));
          throw new ItemNotFoundError();
        },
      },
    } as unknown as ItemPhotoUseCases;
    const app = express();
    app.use(
      createItemPhotoRouter({
        useCases,
        authenticate: (_req, res, next) => {
          res.locals.userId = "user0000000000000000001";
          next();
        },
        // Two slots at this limit.
        maxBytes: 30 * MB,
      }),
    );
    app.use(createErrorHandler(new MemoryLogger()));
    const server = app.listen(0, "127.0.0.1");
    try {
      const uploads = [1, 2, 3].map(() =>
        request(server).put(PATH).set("Content-Type", "image/jpeg").send(Buffer.alloc(1024, 1)),
      );
      const answers = Promise.all(uploads.map((upload) => upload.then((response) => response.status)));
      await called;
      await turns(50);
      expect(reads, "two bodies read, the third left in its socket").to.equal(2);
      releases.shift()?.();
      while (reads < 3) await turns(1);
      // The third was read (and queued its release) in the same turn as it counted.
      for (const release of releases.splice(0)) release();
      expect(await answers).to.deep.equal([404, 404, 404]);
    } finally {
      server.close();
    }
  });
});
