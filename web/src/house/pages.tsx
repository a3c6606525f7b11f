/** The House pages other than automations: overview, devices, state, services, logs, HomeKit, admins. */
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n/index.js";
import { ApiError, api, type User } from "../api.js";
import { ConfirmButton } from "../components.js";
import { formatNumber } from "../format.js";
import { announce, getState } from "../store.js";
import type { Automation } from "./automations.js";
import {
  Badge,
  compactJson,
  formatDuration,
  HouseError,
  HouseLink,
  houseChange,
  houseErrorText,
  json,
  LEVELS,
  type LogEntry,
  LogLine,
  Loading,
  parseJson,
  TableWrap,
  useHouseData,
  When,
} from "./common.js";
import { useHouseConnection } from "./connection.js";
import { markRevoked } from "./house-live.js";
import { ht } from "./messages.js";
import { setInstallationRole } from "./role.js";

export interface EngineStatus {
  status: "ready" | "not_ready";
  checks: { mqtt: boolean; engine: boolean };
  startedAt: string | null;
  uptimeSeconds: number;
  automations: { registered: number; failed: number };
  role: "single" | "leader" | "standby";
  instance?: string;
  leader?: string | null;
  services: { registered: number; reachable: number; unreachable: number; unknown: number };
  version: string;
}

function Stat(props: { id: string; label: string; children: preact.ComponentChildren; sub?: string | null }) {
  return (
    <div class="card stat" id={props.id}>
      <h2 class="label">{props.label}</h2>
      <div class="value">{props.children}</div>
      {props.sub ? <div class="muted">{props.sub}</div> : null}
    </div>
  );
}

// ---- Overview

export function OverviewPage(props: { status: EngineStatus | undefined; error: unknown }) {
  const { status } = props;
  const automations = useHouseData<{ automations: Automation[] }>("/automations", ["automations"]);
  const errors = useHouseData<{ entries: LogEntry[] }>("/logs?level=50&limit=10", ["errors"]);
  if (props.error) return <HouseError error={props.error} />;
  if (!status) return <Loading />;
  const list = automations.data?.automations ?? [];
  const runs = list.reduce((sum, item) => sum + (item.stats?.runs ?? 0), 0);
  const failures = list.reduce((sum, item) => sum + (item.stats?.errors ?? 0), 0);
  return (
    <>
      <div class="stats">
        <Stat id="stat-engine" label={ht("house.engine")} sub={ht("house.version", { version: status.version })}>
          <Badge tone={status.status === "ready" ? "ok" : status.checks.engine ? "warn" : "bad"}>
            {ht(status.status === "ready" ? "house.engine.ready" : "house.engine.not_ready")}
          </Badge>
        </Stat>
        <Stat id="stat-mqtt" label={ht("house.mqtt")}>
          <Badge tone={status.checks.mqtt ? "ok" : "bad"}>
            {ht(status.checks.mqtt ? "house.mqtt.up" : "house.mqtt.down")}
          </Badge>
        </Stat>
        <Stat
          id="stat-uptime"
          label={ht("house.uptime")}
          sub={status.startedAt ? ht("house.since", { time: new Date(status.startedAt).toLocaleString() }) : null}
        >
          {formatDuration(status.uptimeSeconds)}
        </Stat>
        <Stat id="stat-role" label={ht("house.role")} sub={status.instance ?? null}>
          {ht(`house.role.${status.role}`)}
        </Stat>
        <Stat
          id="stat-automations"
          label={ht("house.automations")}
          sub={ht("house.counts", {
            registered: formatNumber(status.automations.registered),
            failed: formatNumber(status.automations.failed),
            runs: formatNumber(runs),
            errors: formatNumber(failures),
          })}
        >
          {formatNumber(status.automations.registered)}
        </Stat>
        <Stat
          id="stat-services"
          label={ht("house.services")}
          sub={ht("house.servicesSummary", {
            registered: status.services.registered,
            reachable: status.services.reachable,
            unreachable: status.services.unreachable,
            unknown: status.services.unknown,
          })}
        >
          {formatNumber(status.services.registered)}
        </Stat>
      </div>
      <section aria-labelledby="overview-automations">
        <h2 id="overview-automations">{ht("house.automations")}</h2>
        {automations.error ? <HouseError error={automations.error} /> : null}
        {list.length === 0 && automations.data ? <p>{ht("house.noAutomations")}</p> : null}
        {list.length > 0 ? (
          <TableWrap label={ht("house.automations")}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{ht("house.name")}</th>
                  <th scope="col">{ht("house.status")}</th>
                  <th scope="col">{ht("house.runs")}</th>
                  <th scope="col">{ht("house.errors")}</th>
                  <th scope="col">{ht("house.lastRun")}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((item) => (
                  <tr key={`${item.status}-${item.name}-${item.file ?? ""}`} data-automation={item.name}>
                    <td>
                      <HouseLink slug="automations">{item.name}</HouseLink>
                    </td>
                    <td>
                      <Badge tone={item.status === "running" ? "ok" : "bad"}>
                        {ht(item.status === "running" ? "house.status.running" : "house.status.failed")}
                      </Badge>
                    </td>
                    <td>{formatNumber(item.stats?.runs ?? 0)}</td>
                    <td>{formatNumber(item.stats?.errors ?? 0)}</td>
                    <td>
                      <When at={item.stats?.lastRunAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </section>
      <section aria-labelledby="overview-errors">
        <h2 id="overview-errors">{ht("house.recentErrors")}</h2>
        {errors.error ? <HouseError error={errors.error} /> : null}
        {errors.data && errors.data.entries.length === 0 ? <p>{ht("house.noErrors")}</p> : null}
        {errors.data && errors.data.entries.length > 0 ? (
          <ul class="log-list">
            {errors.data.entries.map((entry, index) => (
              <LogLine key={`${entry.time}-${index}`} entry={entry} />
            ))}
          </ul>
        ) : null}
      </section>
    </>
  );
}

// ---- Devices

interface Device {
  friendly_name: string;
  niceName?: string;
  ieee_address: string;
  type?: string;
  power_source?: string;
  manufacturer?: string;
  model_id?: string;
  definition?: { model?: string; vendor?: string; description?: string };
  state?: Record<string, unknown> | null;
}

export function DevicesPage() {
  const { data, error } = useHouseData<{ devices: Device[] }>("/devices", ["devices"]);
  const [search, setSearch] = useState("");
  if (error instanceof ApiError && error.status === 503) {
    return (
      <div id="devices-disabled" role="note" class="card">
        <h2>{ht("house.devices.disabledTitle")}</h2>
        <p>{ht("house.devices.disabled")}</p>
      </div>
    );
  }
  if (error) return <HouseError error={error} />;
  if (!data) return <Loading />;
  const needle = search.trim().toLowerCase();
  const shown = data.devices.filter((device) =>
    [
      device.friendly_name,
      device.niceName,
      device.ieee_address,
      device.model_id,
      device.manufacturer,
      device.definition?.model,
      device.definition?.vendor,
      device.definition?.description,
    ]
      .filter(Boolean)
      .join(" ")
      .toLowerCase()
      .includes(needle),
  );
  return (
    <>
      <div class="field">
        <label for="device-search">{ht("house.devices.search")}</label>
        <input
          id="device-search"
          type="search"
          value={search}
          onInput={(event) => setSearch(event.currentTarget.value)}
        />
      </div>
      <p class="muted" id="device-summary">
        {ht("house.devices.count", { shown: shown.length, count: data.devices.length })}
      </p>
      {shown.length === 0 ? (
        <p>{ht(data.devices.length ? "house.devices.noMatch" : "house.devices.none")}</p>
      ) : (
        <TableWrap label={ht("house.devices")}>
          <table id="device-table">
            <thead>
              <tr>
                <th scope="col">{ht("house.device")}</th>
                <th scope="col">{ht("house.model")}</th>
                <th scope="col">{ht("house.type")}</th>
                <th scope="col">{ht("house.deviceState")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((device) => {
                const nice = device.niceName && device.niceName !== device.friendly_name ? device.niceName : null;
                const state = device.state ?? {};
                return (
                  <tr key={device.friendly_name} data-device={device.friendly_name}>
                    <td>
                      <strong>{nice ?? device.friendly_name}</strong>
                      {nice ? <div class="muted mono">{device.friendly_name}</div> : null}
                      <div class="muted mono">{device.ieee_address}</div>
                    </td>
                    <td>
                      {device.definition?.vendor ?? device.manufacturer ?? "—"}
                      <div class="muted">{device.definition?.model ?? device.model_id ?? ""}</div>
                    </td>
                    <td>
                      {device.type ?? "—"}
                      {device.power_source ? <div class="muted">{device.power_source}</div> : null}
                    </td>
                    <td>
                      {Object.keys(state).length === 0 ? (
                        <span class="muted">{ht("house.noState")}</span>
                      ) : (
                        <div class="chips">
                          {Object.entries(state).map(([key, value]) => (
                            <span key={key} class="chip" data-field={key}>
                              <span class="k">{key}</span> {typeof value === "string" ? value : compactJson(value)}
                            </span>
                          ))}
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  );
}

// ---- State

export function StatePage() {
  const connection = useHouseConnection();
  const { data, error, reload } = useHouseData<{ state: Record<string, unknown> }>("/state", ["state"]);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("true");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const parsed = parseJson(value);
  const entries = data ? Object.entries(data.state).sort(([a], [b]) => a.localeCompare(b)) : [];
  return (
    <>
      {error ? <HouseError error={error} /> : null}
      {!data && !error ? <Loading /> : null}
      {data ? (
        <p class="muted" id="state-summary">
          {entries.length === 0 ? ht("house.state.none") : ht("house.state.count", { count: entries.length })}
        </p>
      ) : null}
      {entries.length > 0 ? (
        <TableWrap label={ht("house.state")}>
          <table id="state-table">
            <thead>
              <tr>
                <th scope="col">{ht("house.key")}</th>
                <th scope="col">{ht("house.value")}</th>
                <th scope="col">{ht("house.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map(([name, current]) => (
                <StateRow key={name} name={name} value={current} onChanged={reload} />
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      <form
        class="card state-editor"
        id="state-add"
        onSubmit={async (event) => {
          event.preventDefault();
          const name = key.trim();
          if (!parsed.ok || !name) return;
          try {
            await houseChange(connection, "PUT", `/state/${encodeURIComponent(name)}`, { value: parsed.value });
            const saved = ht("house.state.saved", { key: name });
            setResult({ ok: true, text: saved });
            announce(saved);
            setKey("");
            reload();
          } catch (failure) {
            setResult({ ok: false, text: houseErrorText(failure) });
          }
        }}
      >
        <h2>{ht("house.state.add")}</h2>
        <div class="field">
          <label for="state-new-key">{ht("house.key")}</label>
          <input
            id="state-new-key"
            required
            autocomplete="off"
            value={key}
            onInput={(event) => setKey(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="state-new-value">{ht("house.state.newValue")}</label>
          <textarea
            id="state-new-value"
            rows={3}
            class="mono"
            spellcheck={false}
            aria-invalid={!parsed.ok}
            aria-describedby="state-new-result"
            value={value}
            onInput={(event) => setValue(event.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={!parsed.ok}>
            {ht("house.state.set")}
          </button>
        </div>
        <p id="state-new-result" class={result && !result.ok ? "error" : "muted"} aria-live="polite">
          {!parsed.ok ? ht("house.invalidJson", { error: parsed.error }) : (result?.text ?? "")}
        </p>
      </form>
    </>
  );
}

function StateRow(props: { name: string; value: unknown; onChanged: () => void }) {
  const { name } = props;
  const connection = useHouseConnection();
  const [editing, setEditing] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const id = `state-${encodeURIComponent(name).replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const parsed = editing === null ? null : parseJson(editing);
  return (
    <tr data-key={name}>
      <td class="mono key">{name}</td>
      <td class="value">
        {editing === null ? (
          <pre>{json(props.value)}</pre>
        ) : (
          <>
            <textarea
              id={`${id}-editor`}
              rows={4}
              class="mono"
              spellcheck={false}
              aria-label={ht("house.state.valueOf", { key: name })}
              aria-invalid={parsed !== null && !parsed.ok}
              value={editing}
              ref={(element) => element?.focus()}
              onInput={(event) => setEditing(event.currentTarget.value)}
            />
            {parsed && !parsed.ok ? <p class="error">{ht("house.invalidJson", { error: parsed.error })}</p> : null}
          </>
        )}
        <HouseError error={failure} />
      </td>
      <td class="actions">
        {editing === null ? (
          <>
            <button
              type="button"
              aria-label={ht("house.state.editLabel", { key: name })}
              onClick={() => setEditing(json(props.value))}
            >
              {ht("house.state.edit")}
            </button>
            <ConfirmButton
              label={ht("house.state.delete")}
              question={ht("house.state.deleteQuestion", { key: name })}
              confirmLabel={ht("house.state.deleteConfirm")}
              onConfirm={async () => {
                try {
                  await houseChange(connection, "DELETE", `/state/${encodeURIComponent(name)}`);
                  announce(ht("house.state.deleted", { key: name }));
                  props.onChanged();
                } catch (error) {
                  setFailure(error);
                }
              }}
            />
          </>
        ) : (
          <>
            <button
              type="button"
              class="primary"
              disabled={!parsed?.ok}
              onClick={async () => {
                if (!parsed?.ok) return;
                try {
                  await houseChange(connection, "PUT", `/state/${encodeURIComponent(name)}`, { value: parsed.value });
                  setEditing(null);
                  setFailure(null);
                  announce(ht("house.state.saved", { key: name }));
                  props.onChanged();
                } catch (error) {
                  setFailure(error);
                }
              }}
            >
              {t("action.save")}
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              {t("action.cancel")}
            </button>
          </>
        )}
      </td>
    </tr>
  );
}

// ---- Services

interface ServiceHealth {
  key: string;
  provider: string;
  configured: boolean;
  reachable: boolean | null;
  lastError: string | null;
  lastErrorAt: string | null;
  lastSuccessAt: string | null;
  config: { panels?: { name: string; paired: boolean }[] } & Record<string, unknown>;
}

function HealthBadge(props: { service: ServiceHealth }) {
  const { service } = props;
  if (!service.configured) return <Badge tone="warn">{ht("house.health.notConfigured")}</Badge>;
  if (service.reachable === true) return <Badge tone="ok">{ht("house.health.reachable")}</Badge>;
  if (service.reachable === false) return <Badge tone="bad">{ht("house.health.unreachable")}</Badge>;
  return <Badge tone="warn">{ht("house.health.unknown")}</Badge>;
}

export function ServicesPage() {
  const connection = useHouseConnection();
  const { data, error, reload } = useHouseData<{ services: ServiceHealth[] }>("/services", ["services"]);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  if (error) return <HouseError error={error} />;
  if (!data) return <Loading />;
  if (data.services.length === 0) return <p id="services-none">{ht("house.services.none")}</p>;
  const pair = async (panel: string) => {
    setNote({ ok: true, text: ht("house.pair.busy", { panel }) });
    try {
      await houseChange(connection, "POST", `/services/lightPanels/${encodeURIComponent(panel)}/pair`);
      setNote({ ok: true, text: ht("house.pair.done", { panel }) });
      reload();
    } catch (failure) {
      setNote({ ok: false, text: houseErrorText(failure) });
    }
  };
  return (
    <>
      <TableWrap label={ht("house.services")}>
        <table id="services-table" class="cards">
          <thead>
            <tr>
              <th scope="col">{ht("house.key")}</th>
              <th scope="col">{ht("house.provider")}</th>
              <th scope="col">{ht("house.health")}</th>
              <th scope="col">{ht("house.lastSuccess")}</th>
              <th scope="col">{ht("house.lastError")}</th>
            </tr>
          </thead>
          <tbody>
            {data.services.map((service) => {
              const unpaired =
                service.key === "lightPanels" && Array.isArray(service.config?.panels)
                  ? service.config.panels.filter((panel) => panel && panel.paired === false)
                  : [];
              return (
                <tr key={service.key} data-service={service.key}>
                  <td class="mono" data-label={ht("house.key")}>
                    {service.key}
                  </td>
                  <td data-label={ht("house.provider")}>{service.provider}</td>
                  <td data-label={ht("house.health")}>
                    <HealthBadge service={service} />
                  </td>
                  <td data-label={ht("house.lastSuccess")}>
                    <When at={service.lastSuccessAt} />
                  </td>
                  <td class="service-error" data-label={ht("house.lastError")}>
                    {service.lastError ?? "—"}
                    {unpaired.length > 0 ? (
                      <div class="actions">
                        {unpaired.map((panel) => (
                          <button
                            key={panel.name}
                            type="button"
                            title={ht("house.pair.hint")}
                            onClick={() => void pair(panel.name)}
                          >
                            {ht("house.pair", { panel: panel.name })}
                          </button>
                        ))}
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
      <p class={note && !note.ok ? "error" : "muted"} aria-live="polite" id="pair-note">
        {note?.text ?? ""}
      </p>
    </>
  );
}

// ---- Logs

export function LogsPage() {
  const [level, setLevel] = useState("");
  const [automation, setAutomation] = useState("");
  const [search, setSearch] = useState("");
  const [follow, setFollow] = useState(true);
  const query = new URLSearchParams({ limit: "500" });
  if (level) query.set("level", level);
  if (automation) query.set("automation", automation);
  const logs = useHouseData<{ entries: LogEntry[] }>(`/logs?${query}`, ["logs"], { paused: !follow });
  const automations = useHouseData<{ automations: Automation[] }>("/automations", ["automations"]);
  const names = [...new Set((automations.data?.automations ?? []).map((item) => item.name))];
  const needle = search.trim().toLowerCase();
  const entries = logs.data?.entries ?? [];
  const shown = needle ? entries.filter((entry) => compactJson(entry).toLowerCase().includes(needle)) : entries;
  return (
    <>
      <div class="filters log-filters">
        <div class="field">
          <label for="log-level">{ht("house.logs.level")}</label>
          <select id="log-level" value={level} onChange={(event) => setLevel(event.currentTarget.value)}>
            <option value="">{ht("house.logs.allLevels")}</option>
            {Object.entries(LEVELS).map(([value, name]) => (
              <option key={value} value={value}>
                {ht("house.logs.levelAndAbove", { level: name })}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="log-automation">{ht("house.logs.automation")}</label>
          <select id="log-automation" value={automation} onChange={(event) => setAutomation(event.currentTarget.value)}>
            <option value="">{ht("house.logs.allAutomations")}</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="log-search">{ht("house.logs.search")}</label>
          <input
            id="log-search"
            type="search"
            value={search}
            onInput={(event) => setSearch(event.currentTarget.value)}
          />
        </div>
        <div class="check">
          <input
            id="log-follow"
            type="checkbox"
            checked={follow}
            onChange={(event) => setFollow(event.currentTarget.checked)}
          />
          <label for="log-follow">{ht("house.logs.follow")}</label>
        </div>
      </div>
      {logs.error ? <HouseError error={logs.error} /> : null}
      {!logs.data && !logs.error ? <Loading /> : null}
      {logs.data ? (
        <>
          <p class="muted" id="log-summary">
            {ht("house.logs.count", { shown: shown.length, count: entries.length })}
          </p>
          {shown.length === 0 ? (
            <p>{ht("house.logs.none")}</p>
          ) : (
            <ul class="log-list" id="log-list">
              {shown.map((entry, index) => (
                <LogLine key={`${entry.time}-${index}`} entry={entry} />
              ))}
            </ul>
          )}
        </>
      ) : null}
    </>
  );
}

// ---- HomeKit

interface HomeKitReport {
  reachable: boolean;
  accessories: number;
  lastError?: string | null;
  setupCode?: string;
  bridges: {
    name: string;
    port: number | null;
    paired: boolean;
    accessories: number;
    username: string;
    setupQr?: string;
    setupUri?: string;
  }[];
}

export function HomeKitPage() {
  const { data, error } = useHouseData<HomeKitReport>("/homekit", ["services"]);
  if (error instanceof ApiError && error.status === 404) return <p id="homekit-none">{ht("house.homekit.none")}</p>;
  if (error) return <HouseError error={error} />;
  if (!data) return <Loading />;
  return (
    <div id="homekit">
      <p>
        <Badge tone={data.reachable ? "ok" : "bad"}>
          {ht(data.reachable ? "house.homekit.listening" : "house.homekit.notListening")}
        </Badge>{" "}
        {ht("house.homekit.summary", { accessories: data.accessories, bridges: data.bridges.length })}
      </p>
      {data.lastError ? <p class="error-text">{data.lastError}</p> : null}
      {data.setupCode ? (
        <p>
          {ht("house.homekit.code")}{" "}
          <strong class="mono setup-code" id="homekit-setup-code">
            {data.setupCode}
          </strong>
        </p>
      ) : null}
      {data.bridges.map((bridge) => (
        <section key={bridge.username} class="card homekit-bridge" aria-label={bridge.name}>
          <h2>{bridge.name}</h2>
          <p>
            <Badge tone={bridge.port === null ? "bad" : "ok"}>
              {bridge.port === null
                ? ht("house.homekit.notListening")
                : ht("house.homekit.port", { port: bridge.port })}
            </Badge>{" "}
            <Badge tone={bridge.paired ? "ok" : "warn"}>
              {ht(bridge.paired ? "house.homekit.paired" : "house.homekit.notPaired")}
            </Badge>{" "}
            {ht("house.homekit.summary", { accessories: bridge.accessories, bridges: 1 })}{" "}
            <span class="mono">{bridge.username}</span>
          </p>
          {bridge.setupQr ? (
            <figure class="homekit-qr">
              <img src={bridge.setupQr} alt={ht("house.homekit.qr", { name: bridge.name })} width={160} height={160} />
              <figcaption class="mono">{bridge.setupUri}</figcaption>
            </figure>
          ) : null}
        </section>
      ))}
      {data.setupCode ? <p class="muted">{ht("house.homekit.howto")}</p> : null}
    </div>
  );
}

// ---- Admins

export function AdminsPage() {
  const [version, setVersion] = useState(0);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [accounts, setAccounts] = useState<{ data: Required<User>[] | null; error: unknown }>({
    data: null,
    error: null,
  });
  useEffect(() => {
    let current = true;
    api.adminUsers().then(
      (list) => {
        if (current) setAccounts({ data: list.accounts, error: null });
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 403) markRevoked();
        if (current) setAccounts({ data: null, error });
      },
    );
    return () => {
      current = false;
    };
  }, [version]);
  const me = getState().user?.id;
  const change = async (account: Required<User>, grant: boolean) => {
    setNote(null);
    try {
      if (grant) await api.grantAdmin(account.id);
      else await api.revokeAdmin(account.id);
      const text = ht(grant ? "house.admins.granted" : "house.admins.revoked", { name: account.name });
      setNote({ ok: true, text });
      announce(text);
      if (!grant && account.id === me) setInstallationRole("member");
      setVersion((value) => value + 1);
    } catch (error) {
      if (error instanceof ApiError && error.code === "LAST_ADMIN")
        setNote({ ok: false, text: ht("house.admins.last") });
      else setNote({ ok: false, text: houseErrorText(error) });
      if (error instanceof ApiError && error.status === 403) markRevoked();
    }
  };
  return (
    <>
      <p>{ht("house.admins.intro")}</p>
      {accounts.error ? <HouseError error={accounts.error} /> : null}
      {!accounts.data && !accounts.error ? <Loading /> : null}
      {accounts.data ? (
        <TableWrap label={ht("house.admins")}>
          <table id="admins-table" class="cards">
            <thead>
              <tr>
                <th scope="col">{ht("house.name")}</th>
                <th scope="col">{ht("house.admins.email")}</th>
                <th scope="col">{ht("house.admins.role")}</th>
                <th scope="col">{ht("house.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {accounts.data.map((account) => (
                <tr key={account.id} data-account={account.email}>
                  <td data-label={ht("house.name")}>
                    {account.name} {account.id === me ? <span class="muted">{ht("house.admins.you")}</span> : null}
                  </td>
                  <td data-label={ht("house.admins.email")}>{account.email}</td>
                  <td data-label={ht("house.admins.role")}>
                    {ht(account.role === "admin" ? "house.admins.admin" : "house.admins.member")}
                  </td>
                  <td data-label={ht("house.actions")}>
                    {account.role === "admin" ? (
                      <ConfirmButton
                        label={ht("house.admins.revokeShort")}
                        question={ht("house.admins.revokeQuestion", { name: account.name })}
                        confirmLabel={ht("house.admins.revokeShort")}
                        onConfirm={() => change(account, false)}
                      />
                    ) : (
                      <button type="button" onClick={() => void change(account, true)}>
                        {ht("house.admins.grantShort")}
                        <span class="visually-hidden"> – {account.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      <p class={note && !note.ok ? "error" : "muted"} role="status" id="admins-note">
        {note?.text ?? ""}
      </p>
    </>
  );
}
