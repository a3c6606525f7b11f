/**
 * A route handler as a service plugin writes it. The engine runs it under express, so plugin
 * code may annotate its parameters with express's Request and Response types.
 */
// biome-ignore lint/suspicious/noExplicitAny: the port must accept handlers typed with any HTTP framework's request and response (express's, in Hearth), which no narrower type admits.
export type RouteHandler = (request: any, response: any, next: (error?: unknown) => void) => unknown;

/**
 * Where a service plugin mounts custom routes on the engine's HTTP server
 * (`ServicePlugin.registerRoutes`). Kept to the verbs plugins use, so the application layer
 * does not depend on express; an express Router or app satisfies it.
 */
export interface RouteRegistrar {
  get(path: string, ...handlers: RouteHandler[]): unknown;
  post(path: string, ...handlers: RouteHandler[]): unknown;
  put(path: string, ...handlers: RouteHandler[]): unknown;
  patch(path: string, ...handlers: RouteHandler[]): unknown;
  delete(path: string, ...handlers: RouteHandler[]): unknown;
  use(path: string, ...handlers: RouteHandler[]): unknown;
}
