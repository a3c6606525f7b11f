import type { ServiceHealth } from "../../ports/service-health.js";

type TrackedHealth = Pick<ServiceHealth, "reachable" | "lastError" | "lastErrorAt" | "lastSuccessAt">;

/** Remembers how a service's calls went, for its `serviceHealth()` report. */
export class HealthTracker {
  private state: TrackedHealth = { reachable: null, lastError: null, lastErrorAt: null, lastSuccessAt: null };

  constructor(private readonly now: () => Date = () => new Date()) {}

  succeeded(): void {
    this.state = { ...this.state, reachable: true, lastSuccessAt: this.now().toISOString() };
  }

  /** `reachable` is true when the other side answered, only with an error. */
  failed(message: string, reachable: boolean): void {
    this.state = { ...this.state, reachable, lastError: message, lastErrorAt: this.now().toISOString() };
  }

  snapshot(): TrackedHealth {
    return { ...this.state };
  }
}

/** `***` for a set secret, null for an unset one: settings shown in /api/services. */
export function masked(secret: string | undefined | null): string | null {
  return secret ? "***" : null;
}

/** The message of anything thrown, for logs and health reports. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
