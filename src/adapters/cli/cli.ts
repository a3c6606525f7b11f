/** One sub-command of the `hearth` command. */
export interface CliCommand {
  /** One line for --help. */
  summary: string;
  /** Runs the command; resolves to the exit code, or never when it keeps the process running. */
  run(args: string[]): Promise<number | "running">;
}

export interface CliOptions {
  name: string;
  version: string;
  commands: Record<string, CliCommand>;
  /** Where help and errors go; the console by default (tests capture them). */
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/** Exit code for a command line that could not be understood (as sysexits' EX_USAGE family, kept simple). */
export const USAGE_ERROR = 2;

function helpText(options: CliOptions): string {
  const width = Math.max(...Object.keys(options.commands).map((name) => name.length));
  const lines = Object.entries(options.commands).map(
    ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
  );
  return [
    `Usage: ${options.name} <command> [options]`,
    "",
    "Commands:",
    ...lines,
    "",
    "Options:",
    "  -h, --help     show this help",
    "  -v, --version  print the version",
    "",
    "Configuration comes from environment variables (and ./.env); see docs/configuration.md.",
  ].join("\n");
}

/**
 * Parses the command line and runs one command. Returns the exit code, or "running" when
 * the command keeps the process alive (start); unknown commands are a usage error.
 */
export async function runCli(argv: string[], options: CliOptions): Promise<number | "running"> {
  const out = options.out ?? ((line: string) => console.log(line));
  const err = options.err ?? ((line: string) => console.error(line));
  const [first, ...rest] = argv;
  if (first === undefined || first === "-h" || first === "--help" || first === "help") {
    out(helpText(options));
    return first === undefined ? USAGE_ERROR : 0;
  }
  if (first === "-v" || first === "--version" || first === "version") {
    out(options.version);
    return 0;
  }
  const command = options.commands[first];
  if (!command) {
    err(
      `${options.name}: unknown command "${first}". Commands: ${Object.keys(options.commands).join(", ")}. See ${options.name} --help.`,
    );
    return USAGE_ERROR;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    out(`Usage: ${options.name} ${first}\n  ${command.summary}`);
    return 0;
  }
  return command.run(rest);
}

/** What `hearth export|import --household <id> [--format json|csv] <file>` asks for. */
export interface HouseholdFileArguments {
  householdId: string;
  file: string;
  format: "json" | "csv";
}

/**
 * Reads the arguments of `hearth export` and `hearth import`: the household, the file, and the
 * format (`--format`, else the file's extension, else JSON). A string says what is wrong.
 */
export function parseHouseholdFileArguments(args: string[]): HouseholdFileArguments | string {
  let householdId: string | undefined;
  let format: string | undefined;
  const files: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const [flag, inline] = arg.startsWith("--") ? arg.split("=", 2) : [arg, undefined];
    if (flag === "--household" || flag === "--format") {
      const value = inline ?? args[++index];
      if (value === undefined || value.startsWith("--")) return `${flag} needs a value`;
      if (flag === "--household") householdId = value;
      else format = value;
    } else if (arg.startsWith("--")) {
      return `unknown option ${arg}`;
    } else {
      files.push(arg);
    }
  }
  if (!householdId) return "--household <id> is required";
  if (files.length !== 1) return "name exactly one file";
  const file = files[0] as string;
  const chosen = format ?? (file.toLowerCase().endsWith(".csv") ? "csv" : "json");
  if (chosen !== "json" && chosen !== "csv") return "--format must be json or csv";
  return { householdId, file, format: chosen };
}
