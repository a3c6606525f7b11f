import { expect } from "chai";
import { type CliCommand, runCli, USAGE_ERROR } from "../../../src/adapters/cli/cli.js";

function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const ran: string[][] = [];
  const command = (name: string, outcome: number | "running"): CliCommand => ({
    summary: `the ${name} command`,
    run: async (args) => {
      ran.push([name, ...args]);
      return outcome;
    },
  });
  const result = runCli(argv, {
    name: "hearth",
    version: "1.2.3",
    commands: { start: command("start", "running"), migrate: command("migrate", 0) },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { result, out, err, ran };
}

describe("the hearth command line", () => {
  it("prints the version for --version and -v", async () => {
    for (const flag of ["--version", "-v"]) {
      const run = cli([flag]);
      expect(await run.result).to.equal(0);
      expect(run.out).to.deep.equal(["1.2.3"]);
    }
  });

  it("lists the commands for --help, and with no command as a usage error", async () => {
    const help = cli(["--help"]);
    expect(await help.result).to.equal(0);
    expect(help.out[0])
      .to.match(/Usage: hearth <command>/)
      .and.to.match(/start +the start command/)
      .and.to.match(/migrate/);
    const bare = cli([]);
    expect(await bare.result).to.equal(USAGE_ERROR);
    expect(bare.ran).to.deep.equal([]);
  });

  it("runs the named command with the remaining arguments", async () => {
    const run = cli(["migrate", "--dry"]);
    expect(await run.result).to.equal(0);
    expect(run.ran).to.deep.equal([["migrate", "--dry"]]);
    expect(await cli(["start"]).result).to.equal("running");
  });

  it("refuses an unknown command with exit 2, naming the commands", async () => {
    const run = cli(["strat"]);
    expect(await run.result).to.equal(USAGE_ERROR);
    expect(run.err[0]).to.include('unknown command "strat"').and.to.include("start, migrate");
    expect(run.ran).to.deep.equal([]);
  });

  it("shows a command's help instead of running it", async () => {
    const run = cli(["start", "--help"]);
    expect(await run.result).to.equal(0);
    expect(run.ran).to.deep.equal([]);
    expect(run.out[0]).to.include("hearth start");
  });
});
