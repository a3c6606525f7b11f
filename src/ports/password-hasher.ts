/** One-way password hashing with a memory-hard KDF. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or an unparseable hash; never throws for those. */
  verify(password: string, passwordHash: string): Promise<boolean>;
}

export const PASSWORD_HASHER = Symbol("PasswordHasher");
