/**
 * A broker a test owns and may stop and restart (the shared one must never be restarted):
 * a Mosquitto child process when /usr/sbin/mosquitto (or `mosquitto` on PATH) exists,
 * otherwise an in-process aedes broker on the same fixed port.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { freePort } from "./network.js";
import { isPortAnswering, startEmbeddedBroker, type EmbeddedBroker } from "../../src/adapters/mqtt/embedded-broker.js";

function mosquittoPath(): string | null {
  if (existsSync("/usr/sbin/mosquitto")) return "/usr/sbin/mosquitto";
  const found = spawnSync("sh", ["-c", "command -v mosquitto"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

export { freePort };

export class OwnBroker {
  private child: ChildProcess | null = null;
  private embedded: EmbeddedBroker | null = null;
  readonly kind: "mosquitto" | "aedes";

  private constructor(
    readonly port: number,
    private readonly binary: string | null,
  ) {
    this.kind = binary ? "mosquitto" : "aedes";
  }

  static async create(): Promise<OwnBroker> {
    const broker = new OwnBroker(await freePort(), mosquittoPath());
    console.log(`      [own-broker] ${broker.kind} on port ${broker.port}`);
    return broker;
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.binary) {
      this.child = spawn(this.binary, ["-p", String(this.port)], { stdio: "ignore" });
    } else {
      this.embedded = await startEmbeddedBroker(this.port);
    }
    const deadline = Date.now() + 10_000;
    while (!(await isPortAnswering("127.0.0.1", this.port, 200))) {
      if (Date.now() > deadline) throw new Error(`broker on port ${this.port} did not come up`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    if (this.child) {
      const child = this.child;
      this.child = null;
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      }
    }
    if (this.embedded) {
      await this.embedded.close();
      this.embedded = null;
    }
  }
}
