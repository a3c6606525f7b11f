// Preloaded (node --import) into a Hearth process by a test: when the process exits, writes the
// packages whose CommonJS modules it loaded to the file LOADED_PACKAGES_FILE names, so a test can
// see what a start loads without reaching into the process.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const file = process.env.LOADED_PACKAGES_FILE;
if (file) {
  process.on("exit", () => {
    const packages = new Set();
    for (const loaded of Object.keys(require("node:module")._cache)) {
      const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(loaded);
      if (match) packages.add(match[1].replace("\\", "/"));
    }
    writeFileSync(file, JSON.stringify([...packages].sort()));
  });
}
