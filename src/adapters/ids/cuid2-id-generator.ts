import { createHash, randomFillSync } from "node:crypto";
import { hostname } from "node:os";
import type { IdGenerator } from "../../ports/id-generator.js";

const ID_LENGTH = 24;
const FINGERPRINT_LENGTH = 32;
/** Counter start range of the CUID2 reference: about 22 000 hosts before a 50 % chance of equal starts. */
const INITIAL_COUNT_MAX = 476_782_367;
const POOL_WORDS = 1024;

/**
 * CUID2 ids (24 characters, a lower-case letter first), made by the CUID2 algorithm: a random
 * letter, then the base-36 SHA3-512 of time, a random salt, a session counter and a host
 * fingerprint. The reference package draws each random character through its own WebCrypto
 * call and converts the hash with an arbitrary-precision library; on item writes, which make
 * several ids each, that was a measurable share of the CPU (docs/performance.md). Here the
 * random words come from one pooled `randomFillSync`, the hash from OpenSSL and the base
 * conversion from a native BigInt, so the ids are the same kind at a fraction of the cost.
 */
export class Cuid2IdGenerator implements IdGenerator {
  private readonly pool = new Uint32Array(POOL_WORDS);
  private poolIndex = POOL_WORDS;
  private counter: number;
  private readonly fingerprint: string;

  constructor() {
    this.counter = Math.floor(this.random() * INITIAL_COUNT_MAX);
    const globals = Object.keys(globalThis).toString();
    this.fingerprint = hash(`${globals}${hostname()}${process.pid}${this.entropy(FINGERPRINT_LENGTH)}`).slice(
      0,
      FINGERPRINT_LENGTH,
    );
  }

  next(): string {
    const letter = String.fromCharCode(97 + Math.floor(this.random() * 26));
    const time = Date.now().toString(36);
    const count = (this.counter++).toString(36);
    const salt = this.entropy(ID_LENGTH);
    return letter + hash(time + salt + count + this.fingerprint).slice(1, ID_LENGTH);
  }

  /** A uniform float in [0, 1) from the CSPRNG, like the reference's random source. */
  private random(): number {
    if (this.poolIndex === POOL_WORDS) {
      randomFillSync(this.pool);
      this.poolIndex = 0;
    }
    return (this.pool[this.poolIndex++] as number) / 0x1_0000_0000;
  }

  private entropy(length: number): string {
    let text = "";
    while (text.length < length) text += Math.floor(this.random() * 36).toString(36);
    return text;
  }
}

/** SHA3-512 in base 36, its first digit dropped (it is biased towards small values). */
function hash(input: string): string {
  const digest = createHash("sha3-512").update(input).digest("hex");
  return BigInt(`0x${digest}`).toString(36).slice(1);
}
