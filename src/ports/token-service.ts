export interface AccessToken {
  token: string;
  /** Lifetime in seconds. */
  expiresIn: number;
}

/** Signed, short-lived access tokens whose subject is a user id. */
export interface TokenService {
  issueAccessToken(userId: string): AccessToken;
  /** The user id of a valid, unexpired token; null otherwise. */
  verifyAccessToken(token: string): string | null;
}

export const TOKEN_SERVICE = Symbol("TokenService");
