#!/usr/bin/env node
// The `hearth` command. It runs the compiled output in dist/ in this very process, on plain
// Node: no tsx, no second process, so a small board spends its memory on Hearth alone. tsx is
// loaded later, and only if an automation written in TypeScript has to be loaded.
// `npm start` is the development command: it runs src/ through tsx instead.
import { existsSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

// Node 22.1+ keeps the compiled code of every module it loads on disk (in the OS temporary
// directory) and reuses it on the next start: a second start spends far less time compiling
// Hearth's dependencies. Older Node has no such function; starting is then merely slower.
module.enableCompileCache?.();

const main = new URL("../dist/composition/main.js", import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  console.error(
    "hearth: dist/ is missing; this checkout has not been built. Run `npm run build` (or `npm ci`), or use `npm start` to run the sources.",
  );
  process.exit(1);
}
// First of all: on Node 22.15+ and 24 under glibc, `hearth start` runs itself again (same pid)
// with the C library's malloc pools capped, unless MALLOC_ARENA_MAX is set (malloc-pools.ts).
const { restartWithSmallMallocPools } = await import(
  new URL("../dist/composition/malloc-pools.js", import.meta.url).href
);
restartWithSmallMallocPools();
// Before Hearth's modules load: a heap that has grown stays grown.
const { keepHeapSmall } = await import(new URL("../dist/composition/small-heap.js", import.meta.url).href);
keepHeapSmall();
await import(main.href);
