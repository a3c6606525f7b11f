/** An account. Deleted accounts stay as anonymised rows so items keep a valid createdBy/updatedBy. */
export interface User {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What other records embed about a user (UserResponse in the spec). */
export interface UserSummary {
  id: string;
  email: string;
  name: string;
}

export const DELETED_USER_NAME = "Deleted user";

/** Emails are unique case-insensitively; we store them lower-cased and trimmed. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The email a deleted account keeps: unique (the column is UNIQUE), outside any real
 * domain (`.invalid` is reserved by RFC 2606) and never produced by normaliseEmail of
 * a valid address, so nobody can log in with it or register it again by accident.
 */
export function anonymisedEmail(userId: string): string {
  return `deleted+${userId}@deleted.invalid`;
}

export function summariseUser(user: User): UserSummary {
  return { id: user.id, email: user.email, name: user.name };
}
