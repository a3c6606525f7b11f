import { randomBytes } from "node:crypto";
import { type Clock, systemClock } from "../../../ports/clock.js";
import type { SessionValidator } from "./engine-auth.js";

export { SESSION_COOKIE } from "./engine-auth.js";

/** How long a web UI session lives after login. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionStoreOptions {
  clock?: Clock;
  ttlMs?: number;
  /** Upper bound on live sessions; the oldest is dropped first (a login flood cannot grow memory without end). */
  maxSessions?: number;
}

/**
 * Web UI sessions, kept in memory only: a restart logs everyone out, which is the
 * expected trade-off for a single-instance home server. Session ids are 32 random
 * bytes (hex), never derived from the access token.
 */
export class SessionStore implements SessionValidator {
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly maxSessions: number;
  /** Session id → expiry (Unix ms). Map keeps insertion order, so the first entry is the oldest. */
  private readonly sessions = new Map<string, number>();

  constructor(options: SessionStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.ttlMs = options.ttlMs ?? SESSION_TTL_MS;
    this.maxSessions = options.maxSessions ?? 1000;
  }

  /** Starts a session and returns its id and expiry. */
  create(): { id: string; expiresAt: Date } {
    this.prune();
    while (this.sessions.size >= this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    const id = randomBytes(32).toString("hex");
    const expiresAt = this.clock.now().getTime() + this.ttlMs;
    this.sessions.set(id, expiresAt);
    return { id, expiresAt: new Date(expiresAt) };
  }

  isValid(sessionId: string): boolean {
    const expiresAt = this.sessions.get(sessionId);
    if (expiresAt === undefined) return false;
    if (expiresAt <= this.clock.now().getTime()) {
      this.sessions.delete(sessionId);
      return false;
    }
    return true;
  }

  /** Ends a session; returns whether it existed. */
  destroy(sessionId: string): boolean {
    return this.sessions.delete(sessionId);
  }

  /** Drops expired sessions; called on every create so memory stays bounded without a timer. */
  prune(): number {
    const now = this.clock.now().getTime();
    let removed = 0;
    for (const [id, expiresAt] of this.sessions) {
      if (expiresAt <= now) {
        this.sessions.delete(id);
        removed++;
      }
    }
    return removed;
  }

  get size(): number {
    return this.sessions.size;
  }
}
