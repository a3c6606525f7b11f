import type { RequestHandler } from "express";
import type { LeadershipStatus } from "../../../ports/leader-lease.js";

const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Retry-After when the status does not say how long a takeover takes (the default lease: 3 s + 1 s). */
const DEFAULT_TAKEOVER_MS = 4000;

/**
 * Refuses, on a hot-standby instance that does not lead, the requests only the leader can
 * carry out: a standby runs no automations and stores no state, so acknowledging a change
 * there would lose it. Answers 503 naming the leader, with `Retry-After` (a takeover, if
 * one is under way, is over by then). `methods: "writes"` lets reads through (a standby
 * shows its state and logs); `"all"` refuses every method (webhooks run automations on
 * GET too). A leader that does not know yet whether its lease still holds (back from a
 * stall) answers 503 with `Retry-After: 1` the same way. Without `leadership`, or in the
 * single role, everything passes.
 */
export function refuseOnStandby(
  leadership: (() => LeadershipStatus) | undefined,
  methods: "writes" | "all",
): RequestHandler {
  return (req, res, next) => {
    const status = leadership?.();
    if (!status || (methods === "writes" && READ_ONLY_METHODS.has(req.method))) {
      next();
      return;
    }
    if (status.role === "leader" && status.leaseConfirmed === false) {
      // A leader back from a stall, asking the database whether its lease still holds: what it
      // accepted now could not be saved (its writes are fenced), so the caller tries again.
      res.set("Retry-After", "1");
      res.status(503).json({
        error: "Service Unavailable",
        message: `This instance (${status.instance}) is confirming its engine lease; try again in a moment`,
        leader: status.leader,
      });
      return;
    }
    if (status.role !== "standby") {
      next();
      return;
    }
    res.set("Retry-After", String(Math.ceil((status.takeoverMs ?? DEFAULT_TAKEOVER_MS) / 1000)));
    const leader = status.leader
      ? `the engine leader is ${status.leader}: send it there`
      : "no engine leader is known right now: try again shortly";
    res.status(503).json({
      error: "Service Unavailable",
      message: `This instance (${status.instance}) is a hot standby and does not run automations or keep state; ${leader}`,
      leader: status.leader,
    });
  };
}
