/**
 * What makes this installation's bridges the same bridges after a restart: the setup code,
 * each bridge's MAC-style username (its HAP device id: a new one is a new, unpaired bridge
 * to every iPhone) and which bridge each accessory lives on. Generated once and kept in
 * `<DATA_DIR>/homekit/identity.json` (mode 0600: it holds the setup code).
 */
import { randomBytes, randomInt } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

/** `XXX-XX-XXX`, the form HomeKit and hap-nodejs use. */
const SETUP_CODE_PATTERN = /^\d{3}-\d{2}-\d{3}$/;
const USERNAME_PATTERN = /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/;

/** Codes the HAP specification forbids as too easy to guess (section "Setup Code"). */
const FORBIDDEN_CODES = new Set([
  ...Array.from({ length: 10 }, (_, digit) => String(digit).repeat(8)),
  "12345678",
  "87654321",
]);

/**
 * Accepts `12345678` or `123-45-678` (also with spaces) and returns `123-45-678`, or a
 * message saying what is wrong. Used to validate HOMEKIT_SETUP_CODE.
 */
export function normalizeSetupCode(input: string): { ok: true; code: string } | { ok: false; message: string } {
  const digits = input.replace(/[\s-]/g, "");
  if (!/^\d{8}$/.test(digits)) return { ok: false, message: "expected 8 digits, as 123-45-678 or 12345678" };
  if (FORBIDDEN_CODES.has(digits)) {
    return {
      ok: false,
      message: "HomeKit rejects this code as too easy to guess (all digits equal, 12345678 or 87654321)",
    };
  }
  return { ok: true, code: `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}` };
}

export function generateSetupCode(): string {
  for (;;) {
    const digits = String(randomInt(0, 100_000_000)).padStart(8, "0");
    const checked = normalizeSetupCode(digits);
    if (checked.ok) return checked.code;
  }
}

/** A random unicast, locally administered MAC address (it names no real network card). */
export function generateUsername(): string {
  const bytes = randomBytes(6);
  bytes[0] = ((bytes[0] ?? 0) & 0xfc) | 0x02;
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0").toUpperCase()).join(":");
}

/** `123-45-678` as `***-**-678`: enough to tell codes apart in a log, not enough to pair. */
export function maskSetupCode(code: string): string {
  return code.replace(/\d(?=.{3})/g, "*");
}

const identitySchema = z.object({
  version: z.literal(1),
  setupCode: z.string().regex(SETUP_CODE_PATTERN),
  bridges: z.array(z.object({ username: z.string().regex(USERNAME_PATTERN) })).min(1),
  assignments: z.record(z.string(), z.number().int().min(0)).default({}),
});
export type HomeKitIdentityDocument = z.infer<typeof identitySchema>;

/** Reads, extends and writes the identity file. */
export class HomeKitIdentity {
  private constructor(
    private readonly file: string,
    private document: HomeKitIdentityDocument,
    /** From configuration: used instead of the stored code, never written. */
    private readonly configuredCode: string | undefined,
    /** True when this start created the file. */
    readonly created: boolean,
  ) {}

  /**
   * Loads `<dir>/identity.json`, or creates it with a new setup code and one bridge. A
   * malformed file is moved aside (the user may want its setup code back), not overwritten.
   */
  static async load(dir: string, configuredCode?: string): Promise<{ identity: HomeKitIdentity; problem?: string }> {
    const file = path.join(dir, "identity.json");
    let problem: string | undefined;
    try {
      const parsed = identitySchema.safeParse(JSON.parse(await readFile(file, "utf8")));
      if (parsed.success) return { identity: new HomeKitIdentity(file, parsed.data, configuredCode, false) };
      problem = `${file} is malformed (${parsed.error.issues[0]?.message ?? "invalid"}); moved it aside and started a new identity`;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT")
        problem = `${file} could not be read (${(error as Error).message}); moved it aside and started a new identity`;
    }
    if (problem) await rename(file, `${file}.bad-${Date.now()}`).catch(() => undefined);
    const identity = new HomeKitIdentity(
      file,
      { version: 1, setupCode: generateSetupCode(), bridges: [{ username: generateUsername() }], assignments: {} },
      configuredCode,
      true,
    );
    await identity.save();
    return problem ? { identity, problem } : { identity };
  }

  get setupCode(): string {
    return this.configuredCode ?? this.document.setupCode;
  }

  /** Whether the setup code comes from configuration (HOMEKIT_SETUP_CODE) rather than the file. */
  get setupCodeConfigured(): boolean {
    return this.configuredCode !== undefined;
  }

  get assignments(): Record<string, number> {
    return { ...this.document.assignments };
  }

  /** The username of bridge `index`, generating (not yet saving) usernames up to it. */
  usernameFor(index: number): string {
    while (this.document.bridges.length <= index) this.document.bridges.push({ username: generateUsername() });
    return this.document.bridges[index]!.username;
  }

  async saveAssignments(assignments: Record<string, number>): Promise<void> {
    this.document = { ...this.document, assignments };
    await this.save();
  }

  async save(): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    // Written aside and renamed, so a crash mid-write never leaves a truncated identity.
    const scratch = `${this.file}.tmp`;
    await writeFile(scratch, `${JSON.stringify(this.document, null, 2)}\n`, { mode: 0o600 });
    await rename(scratch, this.file);
  }
}
