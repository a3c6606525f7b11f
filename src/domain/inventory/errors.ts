import { DomainError } from "../shared/domain-error.js";

export class EmailAlreadyRegisteredError extends DomainError {
  readonly code = "EMAIL_TAKEN";
  constructor() {
    super("An account with this email already exists");
  }
}

/** Same message for an unknown email and a wrong password, so it reveals nothing. */
export class InvalidCredentialsError extends DomainError {
  readonly code = "INVALID_CREDENTIALS";
  constructor() {
    super("Invalid credentials");
  }
}

export class InvalidRefreshTokenError extends DomainError {
  readonly code = "INVALID_REFRESH_TOKEN";
  constructor() {
    super("Invalid or expired refresh token; sign in again");
  }
}

/** No, an invalid or an expired access token, or one of a deleted account. */
export class WrongPasswordError extends DomainError {
  readonly code = "WRONG_PASSWORD";
  constructor() {
    super("The current password is not correct", [{ path: "currentPassword", message: "is not correct" }]);
  }
}

export class AuthenticationRequiredError extends DomainError {
  readonly code = "AUTHENTICATION_REQUIRED";
  constructor(message = "Sign in to continue: a valid access token is required") {
    super(message);
  }
}

export class UserOwnsHouseholdError extends DomainError {
  readonly code = "USER_OWNS_HOUSEHOLD";
  constructor() {
    super("Transfer ownership of or delete your households before deleting your account");
  }
}

export class AdminRequiredError extends DomainError {
  readonly code = "ADMIN_REQUIRED";
  constructor() {
    super("Only an admin of this Hearth can do this");
  }
}

export class LastAdminError extends DomainError {
  readonly code = "LAST_ADMIN";
  constructor() {
    super("This is the only admin: make another account admin first");
  }
}

export class AccountNotFoundError extends DomainError {
  readonly code = "ACCOUNT_NOT_FOUND";
  constructor() {
    super("No account with this id");
  }
}

export class NotHouseholdMemberError extends DomainError {
  readonly code = "NOT_HOUSEHOLD_MEMBER";
  constructor() {
    super("You are not a member of this household");
  }
}

export class NotHouseholdOwnerError extends DomainError {
  readonly code = "NOT_HOUSEHOLD_OWNER";
  constructor() {
    super("Only the household owner can do this");
  }
}

export class MemberNotFoundError extends DomainError {
  readonly code = "MEMBER_NOT_FOUND";
  constructor() {
    super("This user is not a member of the household");
  }
}

export class CannotRemoveOwnerError extends DomainError {
  readonly code = "CANNOT_REMOVE_OWNER";
  constructor() {
    super("The owner cannot be removed; transfer ownership first");
  }
}

export class OwnerCannotLeaveError extends DomainError {
  readonly code = "OWNER_CANNOT_LEAVE";
  constructor() {
    super("The owner cannot leave the household; transfer ownership or delete the household first");
  }
}

export class InvalidTransferTargetError extends DomainError {
  readonly code = "INVALID_TRANSFER_TARGET";
  constructor(message: string) {
    super(message, [{ path: "newOwnerId", message }]);
  }
}

export class InviteNotFoundError extends DomainError {
  readonly code = "INVITE_NOT_FOUND";
  constructor() {
    super("Invite not found");
  }
}

export class InviteGoneError extends DomainError {
  readonly code = "INVITE_GONE";
  constructor() {
    super("This invite has already been used or has expired");
  }
}

export class AlreadyMemberError extends DomainError {
  readonly code = "ALREADY_MEMBER";
  constructor() {
    super("You are already a member of this household");
  }
}

export class FreezerNotFoundError extends DomainError {
  readonly code = "FREEZER_NOT_FOUND";
  constructor() {
    super("Freezer not found");
  }
}

export class CompartmentNotFoundError extends DomainError {
  readonly code = "COMPARTMENT_NOT_FOUND";
  constructor() {
    super("Compartment not found");
  }
}

export class FreezerNotEmptyError extends DomainError {
  readonly code = "FREEZER_NOT_EMPTY";
  constructor() {
    super("The freezer still holds items (active or archived); move or delete them first");
  }
}

export class CompartmentNotEmptyError extends DomainError {
  readonly code = "COMPARTMENT_NOT_EMPTY";
  constructor() {
    super("The compartment still holds items (active or archived); move or delete them first");
  }
}
