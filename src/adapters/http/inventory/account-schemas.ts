import { z } from "zod";
import { INSTALLATION_ROLES } from "../../../domain/inventory/user.js";
import "./openapi.js";

const email = z.email("must be a valid email address").max(254, "must be at most 254 characters");
const password = z.string().min(8, "must be at least 8 characters").max(128, "must be at most 128 characters");
export const personName = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
const opaqueToken = z.string().min(1, "must not be empty").max(512, "must be at most 512 characters");

export const registerBody = z.object({ email, password, name: personName }).strict().openapi("RegisterRequest");

export const loginBody = z
  .object({
    email: z.string().min(1, "must not be empty").max(254, "must be at most 254 characters"),
    password: z.string().min(1, "must not be empty").max(128, "must be at most 128 characters"),
  })
  .strict()
  .openapi("LoginRequest");

export const refreshBody = z.object({ refreshToken: opaqueToken }).strict().openapi("RefreshRequest");

export const updateUserBody = z
  .object({ name: personName.optional(), email: email.optional() })
  .strict()
  .openapi("UpdateUserRequest");

export const changePasswordBody = z
  .object({
    currentPassword: z.string().min(1, "must not be empty").max(128, "must be at most 128 characters"),
    newPassword: password,
  })
  .strict()
  .openapi("ChangePasswordRequest");

export const userResponse = z.object({ id: z.string(), email: z.string(), name: z.string() }).openapi("UserResponse");

/** The signed-in user with their installation role (`GET|PATCH /users/me`, the admin routes). */
export const currentUserResponse = userResponse
  .extend({
    role: z.enum(INSTALLATION_ROLES).openapi({
      description:
        "The account's role in this Hearth installation: `admin` runs the house (the House pages and `/api/v1/house/…`) and grants admin; `member` uses the freezer app only. Roles inside a household are separate.",
    }),
  })
  .openapi("CurrentUserResponse");

export const accountListResponse = z
  .object({
    accounts: z.array(currentUserResponse),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi("AccountList");

export const tokenPairResponse = z.object({ accessToken: z.string(), refreshToken: z.string() }).openapi("TokenPair");

export const sessionResponse = z
  .object({ accessToken: z.string(), refreshToken: z.string(), user: userResponse })
  .openapi("AuthResponse");

/** What the web app's cookie session routes answer: the refresh token travels only in the cookie. */
export const webSessionResponse = z
  .object({ accessToken: z.string(), user: userResponse })
  .openapi("WebSessionResponse");
