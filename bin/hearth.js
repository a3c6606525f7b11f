#!/usr/bin/env node
// The `hearth` command. It runs Hearth's TypeScript sources through tsx with the
// hearth-source condition, so automations in this checkout that `import … from "hearth"`
// share the engine's own classes. Node takes those as process flags only, so this launcher
// starts one child node with them and stays as a thin parent: it passes SIGINT/SIGTERM on
// and exits with the child's code, so a service manager that signals it stops Hearth cleanly.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../src/composition/main.ts", import.meta.url));
const tsx = import.meta.resolve("tsx");
const child = spawn(process.execPath, ["--conditions=hearth-source", "--import", tsx, main, ...process.argv.slice(2)], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  process.exit(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1));
});
