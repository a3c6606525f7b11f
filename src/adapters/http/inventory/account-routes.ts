import { z } from "zod";
import type { InventoryUseCases } from "../../../application/inventory/inventory-use-cases.js";
import {
  accountListResponse,
  changePasswordBody,
  currentUserResponse,
  loginBody,
  refreshBody,
  registerBody,
  sessionResponse,
  tokenPairResponse,
  updateUserBody,
} from "./account-schemas.js";
import { messageResponseSchema } from "./openapi.js";
import { idSchema, queryInteger } from "./validation.js";
import { defineRoute, type RouteDefinition } from "./routes.js";
import { REFRESH_REUSE_DESCRIPTION } from "./web-session-routes.js";

/** /auth/* and /users/me. */
export function accountRoutes(useCases: InventoryUseCases): RouteDefinition[] {
  return [
    defineRoute({
      method: "post",
      path: "/auth/register",
      summary: "Create an account and sign in",
      tags: ["Auth"],
      auth: false,
      body: registerBody,
      status: 201,
      response: sessionResponse,
      errors: [409],
      handler: ({ body }) => useCases.register.execute(body),
    }),
    defineRoute({
      method: "post",
      path: "/auth/login",
      summary: "Sign in with email and password",
      tags: ["Auth"],
      auth: false,
      body: loginBody,
      status: 200,
      response: sessionResponse,
      errors: [401],
      handler: ({ body }) => useCases.login.execute(body),
    }),
    defineRoute({
      method: "post",
      path: "/auth/refresh",
      summary: "Rotate a refresh token for a new token pair",
      description: REFRESH_REUSE_DESCRIPTION,
      tags: ["Auth"],
      auth: false,
      body: refreshBody,
      status: 200,
      response: tokenPairResponse,
      errors: [401],
      handler: ({ body }) => useCases.refreshTokens.execute(body),
    }),
    defineRoute({
      method: "post",
      path: "/auth/logout",
      summary: "Revoke a refresh token (ends that session)",
      tags: ["Auth"],
      auth: false,
      body: refreshBody,
      status: 200,
      response: messageResponseSchema,
      handler: ({ body }) => useCases.logout.execute(body),
    }),
    defineRoute({
      method: "post",
      path: "/auth/logout-all",
      summary: "Sign out on every device (revokes all of the caller's refresh tokens)",
      tags: ["Auth"],
      status: 200,
      response: messageResponseSchema,
      handler: ({ userId }) => useCases.logoutEverywhere.execute({ userId }),
    }),
    defineRoute({
      method: "post",
      path: "/users/me/password",
      summary: "Change the signed-in user's password (needs the current one)",
      tags: ["Users"],
      body: changePasswordBody,
      status: 200,
      response: messageResponseSchema,
      handler: ({ userId, body }) => useCases.changePassword.execute({ userId, ...body }),
    }),
    defineRoute({
      method: "get",
      path: "/users/me",
      summary: "The signed-in user, with their installation role",
      tags: ["Users"],
      status: 200,
      response: currentUserResponse,
      handler: ({ userId }) => useCases.getCurrentUser.execute({ userId }),
    }),
    defineRoute({
      method: "patch",
      path: "/users/me",
      summary: "Change the signed-in user's name and/or email",
      tags: ["Users"],
      body: updateUserBody,
      status: 200,
      response: currentUserResponse,
      errors: [409],
      handler: ({ userId, body }) => useCases.updateCurrentUser.execute({ userId, ...body }),
    }),
    defineRoute({
      method: "delete",
      path: "/users/me",
      summary: "Delete (anonymise) the signed-in user's account",
      tags: ["Users"],
      status: 200,
      response: messageResponseSchema,
      errors: [409],
      handler: ({ userId }) => useCases.deleteCurrentUser.execute({ userId }),
    }),
    ...adminRoutes(useCases),
  ];
}

const ADMIN_DESCRIPTION =
  "Admin only (403 `ADMIN_REQUIRED` for everyone else). The first account registered on an installation is its admin; admins grant and revoke admin here or with `hearth admin grant|revoke <email>`.";

/** /admin/*: the installation's accounts and who is admin. */
function adminRoutes(useCases: InventoryUseCases): RouteDefinition[] {
  const target = z.object({ userId: idSchema });
  return [
    defineRoute({
      method: "get",
      path: "/admin/users",
      summary: "The installation's accounts with their roles",
      description: `${ADMIN_DESCRIPTION} Active accounts, oldest first.`,
      tags: ["Admin"],
      access: "admin",
      query: z
        .object({
          limit: queryInteger({ min: 1, max: 100 }).optional().default(50),
          offset: queryInteger({ min: 0, max: 1_000_000 }).optional().default(0),
        })
        .strict(),
      status: 200,
      response: accountListResponse,
      errors: [403],
      handler: ({ userId, query }) => useCases.listAccounts.execute({ userId, ...query }),
    }),
    defineRoute({
      method: "put",
      path: "/admin/admins/{userId}",
      summary: "Make an account an admin of the installation",
      description: `${ADMIN_DESCRIPTION} Idempotent.`,
      tags: ["Admin"],
      access: "admin",
      params: target,
      status: 200,
      response: currentUserResponse,
      errors: [403, 404],
      handler: ({ userId, params }) =>
        useCases.setInstallationRole.execute({ userId, targetId: params.userId, role: "admin" }),
    }),
    defineRoute({
      method: "delete",
      path: "/admin/admins/{userId}",
      summary: "Take admin from an account (yourself included, unless you are the only admin)",
      description: `${ADMIN_DESCRIPTION} 409 \`LAST_ADMIN\` when the account is the only admin. Idempotent for an account that is not an admin.`,
      tags: ["Admin"],
      access: "admin",
      params: target,
      status: 200,
      response: currentUserResponse,
      errors: [403, 404, 409],
      handler: ({ userId, params }) =>
        useCases.setInstallationRole.execute({ userId, targetId: params.userId, role: "member" }),
    }),
  ];
}
