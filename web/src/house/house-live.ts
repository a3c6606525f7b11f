/**
 * The House pages' live updates: the engine's events (Server-Sent Events at the connection's
 * eventsUrl: /api/v1/house/events with the account's bearer token, or the engine's own
 * /api/events with the /status cookie) read with fetch, as live.ts reads the household's. Each
 * event bumps the version of the data it touches; a page reloads what it shows when a version
 * it uses changes. Reconnects with backoff; a 403 means the role was taken away.
 */
import { useEffect, useState } from "preact/hooks";
import type { HouseConnection } from "./connection.js";
import { setInstallationRole } from "./role.js";

/**
 * What an event touches; "errors" is the part of the log the overview shows (level error and
 * above); "engine" the engine's own status (its MQTT connection, whose changes are `mqtt` events).
 */
export type Topic = "state" | "automations" | "logs" | "errors" | "devices" | "services" | "engine";
export type LiveStatus = "connecting" | "on" | "off";

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
/** Events closer together than this reload once (a burst of log lines, a sensor chattering). */
const COALESCE_MS = 300;
/**
 * Reloads at most this often: a busy house (a sensor reporting every second, a chatty
 * automation) must not spend the account's request budget (RATE_LIMIT_PER_MINUTE, 100 by
 * default); a page reloads two or three routes per flush.
 */
const MIN_INTERVAL_MS = 3000;
let lastFlush = 0;

const versions: Record<Topic, number> = {
  state: 0,
  automations: 0,
  logs: 0,
  errors: 0,
  devices: 0,
  services: 0,
  engine: 0,
};
let status: LiveStatus = "connecting";
const listeners = new Set<() => void>();
const dirty = new Set<Topic>();
let flush: ReturnType<typeof setTimeout> | null = null;
let revoked = false;

function tell(): void {
  for (const listener of listeners) listener();
}

function touch(...topics: Topic[]): void {
  for (const topic of topics) dirty.add(topic);
  if (flush) return;
  const delay = Math.max(COALESCE_MS, lastFlush + MIN_INTERVAL_MS - Date.now());
  flush = setTimeout(() => {
    flush = null;
    lastFlush = Date.now();
    for (const topic of dirty) versions[topic] += 1;
    dirty.clear();
    tell();
  }, delay);
}

function setStatus(next: LiveStatus): void {
  if (status === next) return;
  status = next;
  tell();
}

const TOPICS_BY_EVENT: Record<string, Topic[]> = {
  state: ["state"],
  "automation.run": ["automations"],
  // One registered, reloaded, removed, failed to load or reload, or with new type warnings.
  automations: ["automations"],
  // The broker connection dropped or came back: the engine's status (the overview's banner).
  mqtt: ["engine"],
  log: ["logs"],
  "log.skipped": ["logs"],
  device: ["devices"],
  service: ["services"],
};

const ERROR_LEVEL = 50;
function handle(block: string): void {
  let type = "message";
  let data = "";
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(":")) continue;
    if (line.startsWith("event:")) type = line.slice(6).trim();
    else if (line.startsWith("data:")) data = line.slice(5).trim();
  }
  const topics = TOPICS_BY_EVENT[type];
  if (topics) touch(...topics);
  if (type !== "log" && type !== "log.skipped") return;
  const entry = type === "log" ? logEntry(data) : { level: 0, msg: "" };
  if (type === "log.skipped" || entry.level >= ERROR_LEVEL) touch("errors");
}

function logEntry(data: string): { level: number; msg: string } {
  try {
    const { level, msg } = JSON.parse(data) as { level?: unknown; msg?: unknown };
    return { level: typeof level === "number" ? level : 0, msg: typeof msg === "string" ? msg : "" };
  } catch {
    return { level: 0, msg: "" };
  }
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function follow(connection: HouseConnection, signal: AbortSignal): Promise<void> {
  let delay = FIRST_DELAY_MS;
  let connectedBefore = false;
  while (!signal.aborted) {
    setStatus("connecting");
    try {
      const response = await fetch(connection.eventsUrl, {
        headers: { Accept: "text/event-stream", ...connection.streamHeaders() },
        cache: "no-store",
        credentials: "same-origin",
        signal,
      });
      if (response.status === 401) {
        if (await connection.renew().catch(() => false)) continue;
      } else if (response.status === 403) {
        revoked = true;
        setInstallationRole("member");
        setStatus("off");
        tell();
        return;
      } else if (response.status === 404 || response.status === 405 || response.status === 501) {
        setStatus("off");
        return;
      } else if (response.ok && response.body) {
        delay = FIRST_DELAY_MS;
        setStatus("on");
        // What changed while the stream was down is not replayed: reload everything once.
        if (connectedBefore) touch("state", "automations", "logs", "errors", "devices", "services", "engine");
        connectedBefore = true;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
            handle(buffer.slice(0, end));
            buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
          }
        }
      }
    } catch {
      // Offline, a restart, the engine stopping: reconnect after the backoff below.
    }
    if (signal.aborted) return;
    setStatus("connecting");
    await wait(delay + Math.random() * delay * 0.3, signal);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}

/** Follows the engine's events over `connection` while the House pages are open; returns the stop. */
export function followHouse(connection: HouseConnection): () => void {
  const controller = new AbortController();
  revoked = false;
  void follow(connection, controller.signal);
  return () => controller.abort();
}

/** Re-renders on live changes; returns the summed version of `topics` (a reload key) and the stream's status. */
export function useLive(topics: readonly Topic[]): { version: number; status: LiveStatus; revoked: boolean } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return { version: topics.reduce((sum, topic) => sum + versions[topic], 0), status, revoked };
}

/** Marks the House closed to this account (a request answered 403 ADMIN_REQUIRED). */
export function markRevoked(): void {
  revoked = true;
  setInstallationRole("member");
  tell();
}
