import { createId } from "@paralleldrive/cuid2";
import type { IdGenerator } from "../../ports/id-generator.js";

/** CUID2 ids (24 characters, lower-case letter first). */
export class Cuid2IdGenerator implements IdGenerator {
  next(): string {
    return createId();
  }
}
