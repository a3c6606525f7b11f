import type { InventoryUseCases } from "../../../application/inventory/inventory-use-cases.js";
import {
  loginBody,
  refreshBody,
  registerBody,
  sessionResponse,
  tokenPairResponse,
  updateUserBody,
  userResponse,
} from "./account-schemas.js";
import { messageResponseSchema } from "./openapi.js";
import { defineRoute, type RouteDefinition } from "./routes.js";

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
      method: "get",
      path: "/users/me",
      summary: "The signed-in user",
      tags: ["Users"],
      status: 200,
      response: userResponse,
      handler: ({ userId }) => useCases.getCurrentUser.execute({ userId }),
    }),
    defineRoute({
      method: "patch",
      path: "/users/me",
      summary: "Rename the signed-in user",
      tags: ["Users"],
      body: updateUserBody,
      status: 200,
      response: userResponse,
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
  ];
}
