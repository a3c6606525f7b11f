import { expect } from "chai";
import { Turns } from "../../../src/domain/shared/turns.js";

/** A promise with its resolve, for work that ends when the test says so. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("Turns", () => {
  it("lets at most `size` holders run at once, the others in the order they came", async () => {
    const turns = new Turns(2);
    const started: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g, index) =>
      turns.run(async () => {
        started.push(index);
        await g.opened;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).to.deep.equal([0, 1]);
    gates[1]?.open();
    await runs[1];
    await Promise.resolve();
    expect(started).to.deep.equal([0, 1, 2]);
    gates[0]?.open();
    await runs[0];
    await Promise.resolve();
    expect(started).to.deep.equal([0, 1, 2, 3]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).to.deep.equal([0, 1, 2, 3]);
  });

  it("gives the turn back when the work fails", async () => {
    const turns = new Turns(1);
    const failed = await turns.run(() => Promise.reject(new Error("broken"))).catch((error: Error) => error.message);
    expect(failed).to.equal("broken");
    expect(await turns.run(async () => "next")).to.equal("next");
  });
});
