/** What the House pages share: loading engine data that follows live events, badges, tables, errors. */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api.js";
import { describeError } from "../errors.js";
import { formatDateTime, formatRelative } from "../format.js";
import { type HouseConnection, useHouseConnection } from "./connection.js";
import { markRevoked, type Topic, useLive } from "./house-live.js";
import { ht } from "./messages.js";

/** A House request refused with 403: the role was taken away; the section closes. */
function noteRevoked(error: unknown): void {
  if (error instanceof ApiError && error.status === 403) markRevoked();
}

/**
 * GETs `path` of the engine's API (null: nothing yet) and again whenever a live event touches
 * one of `topics`. `bodyOn`: statuses whose error body is the data (/status answers 503 with it).
 */
export function useHouseData<T>(
  path: string | null,
  topics: readonly Topic[],
  options: { bodyOn?: number[]; paused?: boolean } = {},
): { data: T | undefined; error: unknown; reload: () => void } {
  const connection = useHouseConnection();
  const { version } = useLive(topics);
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  // A paused view (a log the reader stopped following) keeps what it shows until asked.
  const [frozen, setFrozen] = useState(version);
  const effective = options.paused ? frozen : version;
  useEffect(() => {
    if (!options.paused) setFrozen(version);
  }, [version, options.paused]);
  useEffect(() => {
    if (!path) return;
    let current = true;
    connection.request<T>("GET", `${connection.apiBase}${path}`).then(
      (body) => {
        if (!current) return;
        setData(body);
        setError(null);
      },
      (failure: unknown) => {
        if (!current) return;
        noteRevoked(failure);
        if (failure instanceof ApiError && options.bodyOn?.includes(failure.status) && failure.body) {
          setData(failure.body as T);
          setError(null);
          return;
        }
        setError(failure);
      },
    );
    return () => {
      current = false;
    };
  }, [path, effective, tick]);
  return { data, error, reload: () => setTick((value) => value + 1) };
}

/** Runs a House change (POST, PUT, DELETE) over `connection`, noting a revoked role like a load does. */
export async function houseChange<T>(
  connection: HouseConnection,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  try {
    return await connection.request<T>(method, `${connection.apiBase}${path}`, body);
  } catch (error) {
    noteRevoked(error);
    throw error;
  }
}

/**
 * A failure in the app's language; the engine's own sentence follows for an admin who needs
 * the detail (which automation, which field), except where the app's sentence is the whole story.
 */
export function houseErrorText(error: unknown): string {
  const sentence = describeError(error);
  if (!(error instanceof ApiError) || error.status === 0 || error.status === 401 || error.status === 403)
    return sentence;
  const detail = [error.message, ...error.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))]
    .filter(Boolean)
    .join(" — ");
  return detail ? `${sentence} (${detail})` : sentence;
}

export function HouseError(props: { error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <p class="error" role="alert">
      {houseErrorText(props.error)}
    </p>
  );
}

/**
 * A link to the House page `slug`, addressed the way the entry routes (/house/… in the family
 * app, #… in the engine's console), moving without a page load where the entry can.
 */
export function HouseLink(props: { slug: string; current?: boolean; children: ComponentChildren }) {
  const connection = useHouseConnection();
  const href = connection.href(props.slug);
  const navigate = connection.navigate;
  const onClick = navigate
    ? (event: MouseEvent) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(href);
      }
    : undefined;
  return (
    <a href={href} onClick={onClick} aria-current={props.current ? "page" : undefined}>
      {props.children}
    </a>
  );
}

export type Tone = "ok" | "warn" | "bad" | "info";

export function Badge(props: { tone: Tone; children: ComponentChildren }) {
  return <span class={`badge ${props.tone}`}>{props.children}</span>;
}

/** A wide table that scrolls sideways on a phone; focusable so the keyboard can scroll it too. */
export function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section class="table-wrap" aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}

export function Loading() {
  return <p class="muted">{ht("house.loading")}</p>;
}

/** "3 min ago" with the exact time as a tooltip; "never" for none. */
export function When(props: { at: string | number | null | undefined }) {
  if (props.at === null || props.at === undefined) return <span>{ht("house.never")}</span>;
  const iso = typeof props.at === "number" ? new Date(props.at).toISOString() : props.at;
  if (Number.isNaN(Date.parse(iso))) return <span>{String(props.at)}</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

/** Whole seconds as "2d 3h 4m", "5m 6s". */
export function formatDuration(seconds: number | undefined): string {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return "—";
  const s = Math.floor(seconds);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${s % 60}s`;
  return `${s}s`;
}

export function formatMs(ms: number | null | undefined): string {
  return typeof ms === "number" ? `${Math.round(ms * 10) / 10} ms` : "—";
}

export function json(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value, null, 2);
}

export function compactJson(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export const LEVELS: Record<number, string> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};

export interface LogEntry {
  level: number;
  time: number;
  msg: string;
  [field: string]: unknown;
}

/** One log line: time, level, message and its extra fields. */
export function LogLine(props: { entry: LogEntry }) {
  const { level, time, msg, ...fields } = props.entry;
  const extra = Object.keys(fields).length > 0 ? ` ${compactJson(fields)}` : "";
  const iso = new Date(time).toISOString();
  return (
    <li data-level={level}>
      <time class="time" dateTime={iso} title={formatDateTime(iso)}>
        {new Date(time).toLocaleTimeString()}
      </time>{" "}
      <span class={`lvl lvl-${level}`}>{LEVELS[level] ?? level}</span>{" "}
      <span class="msg">
        {msg}
        <span class="fields">{extra}</span>
      </span>
    </li>
  );
}
