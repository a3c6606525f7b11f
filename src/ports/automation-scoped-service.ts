/**
 * A service that gives each automation its own view: `require()` calls this with the
 * automation's name and returns what it gives (the inventory service attributes writes to it).
 */
export const SCOPE_TO_AUTOMATION: unique symbol = Symbol.for("hearth.scopeToAutomation");

export interface AutomationScopedService<T> {
  [SCOPE_TO_AUTOMATION](automation: string): T;
}

export function isAutomationScoped(service: unknown): service is AutomationScopedService<unknown> {
  return (
    typeof service === "object" &&
    service !== null &&
    typeof (service as Record<symbol, unknown>)[SCOPE_TO_AUTOMATION] === "function"
  );
}
