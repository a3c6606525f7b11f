/** The engine's automations: stats, load and reload errors, type warnings, recent runs, a manual trigger. */
import { useEffect, useState } from "preact/hooks";
import { formatNumber } from "../format.js";
import { announce } from "../store.js";
import {
  Badge,
  compactJson,
  formatMs,
  HouseError,
  houseChange,
  houseErrorText,
  json,
  Loading,
  parseJson,
  useHouseData,
  When,
} from "./common.js";
import { useHouseConnection } from "./connection.js";
import { ht } from "./messages.js";

interface Trigger {
  type: string;
  topic?: string;
  expression?: string;
  key?: string;
  path?: string;
  methods?: string[];
  friendlyName?: string;
  events?: string[];
  householdId?: string;
  hasFilter?: boolean;
}

export interface Automation {
  name: string;
  file: string | null;
  status: "running" | "failed";
  error?: string;
  triggers: Trigger[];
  stats: {
    runs?: number;
    errors?: number;
    lastRunAt?: string | null;
    lastDurationMs?: number | null;
    lastError?: string | null;
    dropped?: number;
    refused?: number;
  };
  mode?: string;
  max?: number | null;
  rejected?: { trigger: number; count: number; lastAt: string; lastPayload: unknown }[];
  reloadError?: { message: string; at: string } | null;
  typeWarnings?: { file: string; line: number; column: number; code: number; message: string }[];
}

interface Trace {
  status: string;
  trigger: { type?: string } & Record<string, unknown>;
  startedAt: string;
  durationMs: number | null;
  error?: { message: string; stack?: string } | null;
  refusal?: { status: number; message: string; details?: { path: string; message: string }[] };
  logs?: { level: string; msg: string; fields?: unknown }[];
  published?: { topic: string; payload: unknown }[];
  stateChanges?: { key: string; newValue?: unknown; deleted?: boolean }[];
  serviceCalls?: { service: string; method: string; args: unknown[] }[];
}

const TRIGGER_TYPES = ["mqtt", "cron", "state", "webhook", "device_state", "device_joined", "device_left", "inventory"];

export function describeTrigger(trigger: Trigger): string {
  const filter = trigger.hasFilter ? " (filter)" : "";
  switch (trigger.type) {
    case "mqtt":
      return `mqtt ${trigger.topic}${filter}`;
    case "cron":
      return `cron ${trigger.expression}`;
    case "state":
      return `state ${trigger.key}${filter}`;
    case "webhook":
      return `webhook ${(trigger.methods ?? ["POST"]).join(",")} /webhook/${String(trigger.path ?? "").replace(/^\//, "")}`;
    case "device_state":
      return `device_state ${trigger.friendlyName}${filter}`;
    case "device_joined":
    case "device_left":
      return `${trigger.type} ${trigger.friendlyName ?? "*"}`;
    case "inventory":
      return `inventory ${(trigger.events ?? ["*"]).join(",")}${trigger.householdId ? ` ${trigger.householdId}` : ""}${filter}`;
    default:
      return compactJson(trigger);
  }
}

function sampleDevice(friendlyName: string | undefined) {
  return { ieee_address: "0x00124b0000000000", friendly_name: friendlyName ?? "test-device", type: "EndDevice" };
}

/** A context of `type` to start from, filled from the automation's own trigger of that type. */
function contextTemplate(type: string, triggers: Trigger[]): unknown {
  const trigger: Trigger = triggers.find((candidate) => candidate.type === type) ?? { type };
  switch (type) {
    case "mqtt":
      return {
        type,
        topic: String(trigger.topic ?? "test/topic")
          .replace(/#$/, "test")
          .replace(/\+/g, "test"),
        payload: {},
      };
    case "cron":
      return { type, expression: trigger.expression ?? "* * * * *", firedAt: new Date().toISOString() };
    case "state":
      return { type, key: trigger.key ?? "some-key", newValue: true, oldValue: null };
    case "webhook":
      return {
        type,
        path: String(trigger.path ?? "test").replace(/^\//, ""),
        method: (trigger.methods ?? ["POST"])[0],
        headers: {},
        query: {},
        body: {},
      };
    case "device_state":
      return {
        type,
        friendlyName: trigger.friendlyName ?? "test-device",
        state: {},
        device: sampleDevice(trigger.friendlyName),
      };
    case "inventory":
      return {
        type,
        event: {
          type: (trigger.events ?? ["item.created"])[0],
          householdId: trigger.householdId ?? "test-household",
          data: { item: { id: "test-item", name: "Peas", quantity: 1, expiresAt: null, archived: false } },
        },
      };
    default:
      return { type, device: sampleDevice(trigger.friendlyName) };
  }
}

/** A DOM id no automation name can collide with. */
function idFor(index: number, automation: Automation): string {
  return `automation-${index}-${automation.status}`;
}

export function AutomationsPage() {
  const { data, error, reload } = useHouseData<{ automations: Automation[] }>("/automations", ["automations"]);
  const [filter, setFilter] = useState("");
  if (error) return <HouseError error={error} />;
  if (!data) return <Loading />;
  const list = data.automations;
  const failed = list.filter((automation) => automation.status === "failed").length;
  const needle = filter.trim().toLowerCase();
  return (
    <>
      <div class="field">
        <label for="automation-filter">{ht("house.searchAutomations")}</label>
        <input
          id="automation-filter"
          type="search"
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
      </div>
      <p class="muted" id="automation-summary">
        {ht("house.automationsCount", { count: formatNumber(list.length), failed: formatNumber(failed) })}
      </p>
      {list.length === 0 ? <p>{ht("house.noAutomations")}</p> : null}
      <div class="automation-grid">
        {list.map((automation, index) =>
          needle && !automation.name.toLowerCase().includes(needle) ? null : (
            <AutomationCard
              key={`${automation.status}\n${automation.name}\n${automation.file ?? ""}`}
              automation={automation}
              id={idFor(index, automation)}
              onRan={reload}
            />
          ),
        )}
      </div>
    </>
  );
}

function AutomationCard(props: { automation: Automation; id: string; onRan: () => void }) {
  const { automation, id } = props;
  const stats = automation.stats ?? {};
  const rejected = (automation.rejected ?? []).reduce((total, entry) => total + entry.count, 0);
  const warnings = automation.typeWarnings ?? [];
  const running = automation.status === "running";
  return (
    <article class="card automation" id={id} data-name={automation.name} data-status={automation.status}>
      <header>
        <h2>{automation.name}</h2>
        <Badge tone={running ? "ok" : "bad"}>{ht(running ? "house.status.running" : "house.status.failed")}</Badge>
      </header>
      <p class="muted mono" title={automation.file ?? ""}>
        {automation.file ? automation.file.split(/[\\/]/).slice(-2).join("/") : ht("house.registeredInCode")}
      </p>
      <ul class="triggers" aria-label={ht("house.triggers")}>
        {automation.triggers.map((trigger, index) => (
          <li key={index} class="mono">
            {describeTrigger(trigger)}
          </li>
        ))}
      </ul>
      <dl class="kv">
        <dt>{ht("house.runs")}</dt>
        <dd>{formatNumber(stats.runs ?? 0)}</dd>
        <dt>{ht("house.errors")}</dt>
        <dd>{formatNumber(stats.errors ?? 0)}</dd>
        <dt>{ht("house.lastRun")}</dt>
        <dd>
          <When at={stats.lastRunAt} />
        </dd>
        <dt>{ht("house.lastDuration")}</dt>
        <dd>{formatMs(stats.lastDurationMs)}</dd>
        <dt>{ht("house.lastError")}</dt>
        <dd class={stats.lastError ? "error-text" : undefined}>{stats.lastError ?? ht("house.none")}</dd>
        {automation.mode ? (
          <>
            <dt>{ht("house.mode")}</dt>
            <dd>{automation.max ? `${automation.mode} (max ${automation.max})` : automation.mode}</dd>
          </>
        ) : null}
        {stats.dropped ? (
          <>
            <dt>{ht("house.dropped")}</dt>
            <dd>{formatNumber(stats.dropped)}</dd>
          </>
        ) : null}
        {stats.refused ? (
          <>
            <dt>{ht("house.refused")}</dt>
            <dd>{formatNumber(stats.refused)}</dd>
          </>
        ) : null}
        {rejected ? (
          <>
            <dt>{ht("house.filteredOut")}</dt>
            <dd>{formatNumber(rejected)}</dd>
          </>
        ) : null}
      </dl>
      {automation.status === "failed" ? (
        <p class="error-text">{ht("house.notRegistered", { error: automation.error ?? "" })}</p>
      ) : null}
      {automation.reloadError ? (
        <p class="error-text">{ht("house.reloadFailed", { error: automation.reloadError.message })}</p>
      ) : null}
      {warnings.length > 0 ? (
        <div class="type-warnings">
          <p>
            <Badge tone="warn">{ht("house.typeWarnings", { count: warnings.length })}</Badge>
          </p>
          <ul>
            {warnings.map((warning, index) => (
              <li key={index}>
                <span class="mono">{`${warning.file.split(/[\\/]/).slice(-2).join("/")}:${warning.line}:${warning.column}`}</span>
                {` TS${warning.code}: ${warning.message}`}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {running ? <Traces automation={automation} id={id} /> : null}
      {running ? <RunForm automation={automation} id={id} onRan={props.onRan} /> : null}
    </article>
  );
}

/** "Recent runs": loaded when opened, and again on every finished run while open. */
function Traces(props: { automation: Automation; id: string }) {
  const [open, setOpen] = useState(false);
  const path = open ? `/automations/${encodeURIComponent(props.automation.name)}/traces` : null;
  const { data, error } = useHouseData<{ traces: Trace[]; rejected: Automation["rejected"] }>(path, ["automations"]);
  return (
    <details class="trace-view" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{ht("house.traces")}</summary>
      <div class="traces" id={`${props.id}-traces`}>
        {!open ? null : error ? <HouseError error={error} /> : !data ? <Loading /> : <TraceList data={data} />}
      </div>
    </details>
  );
}

function TraceSection<T>(props: { title: string; items: T[] | undefined; render: (item: T) => string }) {
  if (!props.items || props.items.length === 0) return null;
  return (
    <div class="trace-section">
      <h3>{props.title}</h3>
      <ul>
        {props.items.map((item, index) => (
          <li key={index} class="mono">
            {props.render(item)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function TraceList(props: { data: { traces: Trace[]; rejected: Automation["rejected"] } }) {
  const { traces, rejected } = props.data;
  return (
    <>
      {(rejected ?? []).map((entry) => (
        <p key={entry.trigger} class="rejected">
          <Badge tone="warn">
            {ht("house.trace.rejected", { count: entry.count, trigger: entry.trigger + 1, time: "" }).trim()}
          </Badge>{" "}
          <When at={entry.lastAt} /> <code>{compactJson(entry.lastPayload)}</code>
        </p>
      ))}
      {traces.length === 0 ? <p>{ht("house.noRuns")}</p> : null}
      {traces.map((trace, index) => {
        const tone =
          trace.status === "ok"
            ? "ok"
            : trace.status === "error"
              ? "bad"
              : trace.status === "aborted" || trace.status === "refused"
                ? "warn"
                : "info";
        return (
          <details key={`${trace.startedAt}-${index}`} class="trace" data-status={trace.status}>
            <summary>
              <Badge tone={tone}>{trace.status}</Badge> {trace.trigger?.type ?? "?"} · <When at={trace.startedAt} /> ·{" "}
              {trace.durationMs === null ? ht("house.trace.runningNow") : formatMs(trace.durationMs)}
            </summary>
            <div class="trace-section">
              <h3>{ht("house.trace.trigger")}</h3>
              <pre>{json(trace.trigger)}</pre>
            </div>
            {trace.error ? (
              <div class="trace-section">
                <h3>{ht("house.trace.error")}</h3>
                <pre class="error-text">{trace.error.stack ?? trace.error.message}</pre>
              </div>
            ) : null}
            {trace.refusal ? (
              <div class="trace-section">
                <h3>{ht("house.trace.refusal")}</h3>
                <pre>{`${trace.refusal.status} ${trace.refusal.message}${trace.refusal.details ? `\n${json(trace.refusal.details)}` : ""}`}</pre>
              </div>
            ) : null}
            <TraceSection
              title={ht("house.trace.log")}
              items={trace.logs}
              render={(line) =>
                `${line.level} ${line.msg}${line.fields === undefined ? "" : ` ${compactJson(line.fields)}`}`
              }
            />
            <TraceSection
              title={ht("house.trace.published")}
              items={trace.published}
              render={(message) => `${message.topic} ${compactJson(message.payload)}`}
            />
            <TraceSection
              title={ht("house.trace.stateChanged")}
              items={trace.stateChanges}
              render={(change) =>
                change.deleted ? `${change.key} ✕` : `${change.key} = ${compactJson(change.newValue)}`
              }
            />
            <TraceSection
              title={ht("house.trace.serviceCalls")}
              items={trace.serviceCalls}
              render={(call) => `${call.service}.${call.method}(${compactJson(call.args).slice(1, -1)})`}
            />
          </details>
        );
      })}
    </>
  );
}

/** Runs the automation now with a context the admin writes (a template to start from). */
function RunForm(props: { automation: Automation; id: string; onRan: () => void }) {
  const { automation, id } = props;
  const connection = useHouseConnection();
  const first = automation.triggers[0]?.type;
  const [type, setType] = useState(first && TRIGGER_TYPES.includes(first) ? first : "mqtt");
  const [text, setText] = useState(() => json(contextTemplate(type, automation.triggers)));
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(json(contextTemplate(type, automation.triggers))), [type]);
  const parsed = parseJson(text);
  return (
    <details class="trigger-form">
      <summary>{ht("house.run")}</summary>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (!parsed.ok) return;
          setBusy(true);
          setResult(null);
          try {
            await houseChange(
              connection,
              "POST",
              `/automations/${encodeURIComponent(automation.name)}/trigger`,
              parsed.value,
            );
            const done = ht("house.run.done", { time: new Date().toLocaleTimeString() });
            setResult({ ok: true, text: done });
            announce(done);
            props.onRan();
          } catch (error) {
            setResult({ ok: false, text: houseErrorText(error) });
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="field">
          <label for={`${id}-type`}>{ht("house.run.type")}</label>
          <select id={`${id}-type`} value={type} onChange={(event) => setType(event.currentTarget.value)}>
            {TRIGGER_TYPES.map((candidate) => (
              <option key={candidate} value={candidate}>
                {candidate}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={`${id}-context`}>{ht("house.run.context")}</label>
          <textarea
            id={`${id}-context`}
            rows={8}
            spellcheck={false}
            class="mono"
            aria-invalid={!parsed.ok}
            aria-describedby={`${id}-result`}
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || !parsed.ok}>
            {ht("house.run.submit")}
          </button>
          <button type="button" onClick={() => setText(json(contextTemplate(type, automation.triggers)))}>
            {ht("house.run.reset")}
          </button>
        </div>
        <p id={`${id}-result`} class={result && !result.ok ? "error" : "muted"} aria-live="polite">
          {!parsed.ok ? ht("house.invalidJson", { error: parsed.error }) : (result?.text ?? "")}
        </p>
      </form>
    </details>
  );
}
