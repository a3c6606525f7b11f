import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import type { PasswordHasher } from "../../ports/password-hasher.js";

export interface ScryptParameters {
  /** CPU/memory cost, a power of two. 2^15 with r=8 uses 32 MiB per hash. */
  cost: number;
  blockSize: number;
  parallelization: number;
}

/** OWASP's scrypt recommendation (N=2^17 is stronger but too slow for a 2-core home server). */
export const DEFAULT_SCRYPT: ScryptParameters = { cost: 2 ** 15, blockSize: 8, parallelization: 1 };

const KEY_LENGTH = 64;
/** Refuses absurd costs read from a stored hash (2^20 with r=8 is already 1 GiB). */
const MAX_COST = 2 ** 20;

function derive(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.cost,
    r: params.blockSize,
    p: params.parallelization,
    maxmem: 256 * params.cost * params.blockSize,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * scrypt (memory-hard) from node:crypto. Hashes are self-describing
 * (`scrypt$N$r$p$salt$key`, base64url), so parameters can be raised later
 * without invalidating stored passwords.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  constructor(private readonly params: ScryptParameters = DEFAULT_SCRYPT) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.params);
    const { cost, blockSize, parallelization } = this.params;
    return ["scrypt", cost, blockSize, parallelization, salt.toString("base64url"), key.toString("base64url")].join(
      "$",
    );
  }

  async verify(password: string, passwordHash: string): Promise<boolean> {
    const parts = passwordHash.split("$");
    if (parts.length !== 6 || parts[0] !== "scrypt") return false;
    const [cost, blockSize, parallelization] = parts.slice(1, 4).map((part) => Number.parseInt(part, 10));
    if (!cost || !blockSize || !parallelization || cost > MAX_COST) return false;
    const expected = Buffer.from(parts[5]!, "base64url");
    if (expected.length !== KEY_LENGTH) return false;
    try {
      const actual = await derive(password, Buffer.from(parts[4]!, "base64url"), { cost, blockSize, parallelization });
      return timingSafeEqual(actual, expected);
    } catch {
      // Parameters node:crypto refuses (e.g. a cost that is not a power of two): not a hash we made.
      return false;
    }
  }
}
