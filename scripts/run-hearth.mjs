#!/usr/bin/env node
// `npm start` and `npm run migrate`. When dist/ is built from the sources as they are (`npm
// install` builds it), this runs Hearth exactly as the `hearth` command does: the compiled
// output, in this one process, with TypeScript loaded only for automations written in it. That
// is what most people who run `npm start` want, and it costs a first start on PGlite about
// 150 MB less at its peak than the sources through tsx (docs/performance.md). Only when src/ or
// migrations/ changed after the last build (someone working on Hearth itself) does it run the
// sources through tsx, and says so.
import { register } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compiledRuntimeStaleness } from "./dist-freshness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const staleness = compiledRuntimeStaleness(root);
if (staleness === null) {
  await import("../bin/hearth.js");
} else {
  console.warn(
    `hearth: ${staleness === "missing" ? "dist/ is not built" : "src/ changed since dist/ was built"}; running the sources through tsx (slower to start, more memory). \`npm run build\` makes \`npm start\` run the compiled output.`,
  );
  register("./hearth-source-condition.mjs", import.meta.url);
  const { register: registerTsx } = await import("tsx/esm/api");
  registerTsx();
  const { keepHeapSmall } = await import("../src/composition/small-heap.ts");
  keepHeapSmall();
  await import("../src/composition/main.ts");
}
