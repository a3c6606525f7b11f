import { expect } from "chai";
import { TopicIndex, topicFilterProblem, topicMatches } from "../../../src/domain/automation/topic-filter.js";

describe("topic filters", () => {
  it("validates filters", () => {
    for (const valid of ["a", "a/b", "+", "#", "a/+/c", "a/#", "+/+/#", "/", "a//b"]) {
      expect(topicFilterProblem(valid), valid).to.equal(null);
    }
    for (const invalid of ["", "a#", "a/#/b", "a+/b", "a/b+", "#/a", "a\u0000"]) {
      expect(topicFilterProblem(invalid), invalid).to.be.a("string");
    }
  });

  const cases: [string, string, boolean][] = [
    ["a/b", "a/b", true],
    ["a/b", "a/c", false],
    ["a/+", "a/b", true],
    ["a/+", "a/b/c", false],
    ["a/+", "a", false],
    ["+/+", "a/b", true],
    ["a/#", "a", true],
    ["a/#", "a/b/c", true],
    ["a/#", "b/c", false],
    ["#", "anything/at/all", true],
    ["+/b/#", "x/b", true],
    ["+", "", true],
    ["#", "$SYS/broker", false],
    ["+/broker", "$SYS/broker", false],
    ["$SYS/#", "$SYS/broker/load", true],
    ["a/+/c", "a//c", true],
  ];

  for (const [filter, topic, expected] of cases) {
    it(`${filter} ${expected ? "matches" : "does not match"} "${topic}"`, () => {
      expect(topicMatches(filter, topic)).to.equal(expected);
      const index = new TopicIndex<string>();
      index.add(filter, filter);
      expect(index.match(topic)).to.deep.equal(expected ? [filter] : []);
      expect(index.hasMatch(topic)).to.equal(expected);
    });
  }

  it("indexes exact and wildcard filters and removes them again", () => {
    const index = new TopicIndex<string>();
    index.add("home/kitchen/light", "exact");
    index.add("home/+/light", "plus");
    index.add("home/#", "hash");
    index.add("home/+/light", "plus-2");
    expect(index.match("home/kitchen/light").sort()).to.deep.equal(["exact", "hash", "plus", "plus-2"]);
    expect(index.remove("home/+/light", "plus")).to.equal(true);
    expect(index.remove("home/+/light", "plus")).to.equal(false);
    expect(index.match("home/kitchen/light").sort()).to.deep.equal(["exact", "hash", "plus-2"]);
    index.remove("home/+/light", "plus-2");
    index.remove("home/#", "hash");
    index.remove("home/kitchen/light", "exact");
    expect(index.size).to.equal(0);
    expect(index.match("home/kitchen/light")).to.deep.equal([]);
  });

  it("agrees with the reference matcher over many random filters", () => {
    const levels = ["a", "b", "c", "+", "#"];
    const topics = ["a", "a/b", "a/b/c", "b/a", "c/c/c/c", "a/a", "$x/a"];
    const index = new TopicIndex<string>();
    const filters: string[] = [];
    for (let n = 0; n < 300; n++) {
      const depth = 1 + (n % 4);
      const parts: string[] = [];
      for (let level = 0; level < depth; level++) {
        const pick = levels[(n * 7 + level * 13) % levels.length] as string;
        parts.push(pick === "#" && level < depth - 1 ? "a" : pick);
      }
      const filter = parts.join("/");
      filters.push(filter);
      index.add(filter, `${filter}@${n}`);
    }
    for (const topic of topics) {
      const expected = filters
        .map((filter, n) => [filter, n] as const)
        .filter(([filter]) => topicMatches(filter, topic));
      expect(index.match(topic).length, topic).to.equal(expected.length);
    }
  });
});
