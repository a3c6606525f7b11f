/**
 * What an account may do across the installation, apart from its households (where
 * Membership.role says owner or member): admins see and run the house (the engine's pages
 * and routes) and grant or revoke admin.
 */
export const INSTALLATION_ROLES = ["admin", "member"] as const;
export type InstallationRole = (typeof INSTALLATION_ROLES)[number];

/** An account. Deleted accounts stay as anonymised rows so items keep a valid createdBy/updatedBy. */
export interface User {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  role: InstallationRole;
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

/** Where deleted accounts' emails live; `.invalid` is reserved by RFC 2606, so no mailbox is lost. */
const DELETED_ACCOUNTS_DOMAIN = "deleted.invalid";

/**
 * The email a deleted account keeps: unique (the column is UNIQUE) and in a domain nobody
 * may register (see isReservedEmail), so nobody can log in with it, and nobody can take it
 * first and make the account's deletion fail on the unique index.
 */
export function anonymisedEmail(userId: string): string {
  return `deleted+${userId}@${DELETED_ACCOUNTS_DOMAIN}`;
}

/** Where the accounts automations act as live (see automationActorEmail). */
export const AUTOMATION_ACCOUNTS_DOMAIN = "automations.invalid";

/** The address of the account an automation's inventory changes are attributed to. */
export function automationActorEmail(automation: string): string {
  return `${automation}@${AUTOMATION_ACCOUNTS_DOMAIN}`;
}

/** Whether the address belongs to a domain reserved for deleted accounts or automations. */
export function isReservedEmail(email: string): boolean {
  const normalised = normaliseEmail(email);
  return normalised.endsWith(`@${DELETED_ACCOUNTS_DOMAIN}`) || normalised.endsWith(`@${AUTOMATION_ACCOUNTS_DOMAIN}`);
}

/** The signed-in user as `GET /users/me` shows them: the summary and their installation role. */
export interface CurrentUser extends UserSummary {
  role: InstallationRole;
}

export function describeCurrentUser(user: User): CurrentUser {
  return { ...summariseUser(user), role: user.role };
}

export function summariseUser(user: User): UserSummary {
  return { id: user.id, email: user.email, name: user.name };
}
