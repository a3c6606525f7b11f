import { expect } from "chai";
import { BridgeAllocation, MAX_BRIDGED_ACCESSORIES } from "../../../src/adapters/services/homekit/bridge-allocation.js";

const ids = (count: number, prefix = "0x") => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

describe("HomeKit bridge allocation", () => {
  it("puts up to 149 accessories on the first bridge and the rest on the next ones", () => {
    const allocation = new BridgeAllocation(MAX_BRIDGED_ACCESSORIES);
    for (const id of ids(320)) allocation.assign(id);
    expect(allocation.countsPerBridge()).to.deep.equal([149, 149, 22]);
    expect(allocation.bridgeFor("0x148")).to.equal(0);
    expect(allocation.bridgeFor("0x149")).to.equal(1);
  });

  it("answers the same bridge for an accessory asked twice", () => {
    const allocation = new BridgeAllocation(2);
    expect(allocation.assign("a")).to.equal(0);
    expect(allocation.assign("a")).to.equal(0);
    expect(allocation.countsPerBridge()).to.deep.equal([1]);
  });

  it("keeps remembered assignments across a restart, whatever order devices come back in", () => {
    const first = new BridgeAllocation(2);
    for (const id of ["a", "b", "c", "d"]) first.assign(id);
    const second = new BridgeAllocation(2, first.assignments());
    for (const id of ["d", "c", "b", "a"]) second.assign(id);
    expect(["a", "b", "c", "d"].map((id) => second.bridgeFor(id))).to.deep.equal([0, 0, 1, 1]);
  });

  it("fills a freed slot with a new accessory; the one that left keeps its claim while there is room", () => {
    const allocation = new BridgeAllocation(2);
    for (const id of ["a", "b", "c"]) allocation.assign(id);
    allocation.release("a");
    expect(allocation.countsPerBridge()).to.deep.equal([1, 1]);
    expect(allocation.assignments()).to.deep.include({ a: 0 });
    expect(allocation.assign("a")).to.equal(0);
    allocation.release("a");
    expect(allocation.assign("new")).to.equal(0);
    // Its old bridge is full now: it moves to the first bridge with room.
    expect(allocation.assign("a")).to.equal(1);
  });

  it("ignores remembered bridges that are not bridge numbers", () => {
    const allocation = new BridgeAllocation(2, { a: -1, b: 1.5 });
    expect(allocation.assign("a")).to.equal(0);
    expect(allocation.assign("b")).to.equal(0);
  });

  it("rejects a capacity HomeKit cannot hold", () => {
    expect(() => new BridgeAllocation(0)).to.throw(RangeError, /1..149/);
    expect(() => new BridgeAllocation(150)).to.throw(RangeError, /1..149/);
    expect(() => new BridgeAllocation(2.5)).to.throw(RangeError);
  });
});
