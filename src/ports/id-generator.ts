/** Produces identifiers for new records (CUID2 in production). */
export interface IdGenerator {
  next(): string;
}

export const ID_GENERATOR = Symbol("IdGenerator");
