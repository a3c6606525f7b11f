// Hearth web UI client. Plain browser JavaScript, no build step, no dependencies:
// every section is rendered from the engine's debug API and refreshed by polling.

const API = document.body.dataset.apiBase || "/api";
const LOGIN_URL = document.body.dataset.loginUrl || null;
const POLL_MS = 3000;
const SECTIONS = ["overview", "automations", "devices", "state", "logs"];
const LEVELS = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };
const TRIGGER_TYPES = ["mqtt", "cron", "state", "webhook", "device_state", "device_joined", "device_left", "inventory"];

// ---------------------------------------------------------------------------
// DOM helpers: elements are built with textContent only, so API data never becomes markup.

function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "className") {
      element.className = value;
    } else if (value === true) {
      element.setAttribute(name, "");
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function replaceChildren(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

function badge(text, tone) {
  return h("span", { className: `badge ${tone || ""}` }, text);
}

function json(value) {
  if (value === undefined) return "undefined";
  return JSON.stringify(value, null, 2);
}

function compactJson(value) {
  if (value === undefined) return "undefined";
  return JSON.stringify(value);
}

function formatDuration(seconds) {
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

function formatTime(value) {
  if (value === null || value === undefined) return "never";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString();
}

function relativeTime(value) {
  if (value === null || value === undefined) return "never";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  return date.toLocaleDateString();
}

/** The debug API reports a check as a boolean, a word, or an object with a status; all mean "up" or not. */
function isUp(check) {
  if (check === true) return true;
  if (check === false || check === null || check === undefined) return false;
  if (typeof check === "object") return isUp(check.status ?? check.connected ?? check.ok);
  return ["ok", "up", "connected", "ready", "running", "true", "healthy"].includes(String(check).toLowerCase());
}

// ---------------------------------------------------------------------------
// API access

class SignedOut extends Error {}

async function api(path, options = {}) {
  const init = { credentials: "same-origin", headers: { Accept: "application/json" }, ...options };
  if (options.body !== undefined) {
    init.headers = { ...init.headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(`${API}${path}`, init);
  if (response.status === 401 && LOGIN_URL) {
    window.location.assign(LOGIN_URL);
    throw new SignedOut("signed out");
  }
  let body = null;
  const text = await response.text();
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = { message: text };
    }
  }
  return { status: response.status, ok: response.ok, body };
}

function errorMessage(result) {
  const body = result.body || {};
  const parts = [body.message || body.error || `HTTP ${result.status}`];
  if (Array.isArray(body.details)) {
    for (const detail of body.details) {
      const where = Array.isArray(detail.path) ? detail.path.join(".") : detail.path;
      parts.push(where ? `${where}: ${detail.message}` : detail.message);
    }
  }
  return parts.join(" — ");
}

// ---------------------------------------------------------------------------
// Shell: tabs, banner, live indicator

const panels = Object.fromEntries(SECTIONS.map((id) => [id, document.getElementById(`section-${id}`)]));
const banner = document.getElementById("banner");
const liveIndicator = document.getElementById("live-indicator");
let current = "overview";

const tabs = Object.fromEntries(SECTIONS.map((id) => [id, document.getElementById(`tab-${id}`)]));

function selectSection(id) {
  current = SECTIONS.includes(id) ? id : "overview";
  for (const section of SECTIONS) {
    panels[section].hidden = section !== current;
    tabs[section].setAttribute("aria-selected", String(section === current));
    // Roving tabindex: Tab reaches the selected tab only; the arrow keys move between tabs.
    tabs[section].tabIndex = section === current ? 0 : -1;
  }
  refresh();
}

window.addEventListener("hashchange", () => selectSection(window.location.hash.slice(1)));

/** Keyboard support of the ARIA tabs pattern: Left/Right (wrapping), Home and End. */
function onTabKey(event) {
  const index = SECTIONS.indexOf(event.target.id.replace(/^tab-/, ""));
  if (index < 0) return;
  const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: SECTIONS.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const target = SECTIONS[(moves[event.key] + SECTIONS.length) % SECTIONS.length];
  tabs[target].focus();
  window.location.hash = target;
}

document.querySelector("[role=tablist]").addEventListener("keydown", onTabKey);

function showBanner(text, tone) {
  if (!text) {
    banner.hidden = true;
    banner.textContent = "";
    return;
  }
  banner.className = `banner ${tone || ""}`;
  if (banner.textContent !== text) banner.textContent = text;
  banner.hidden = false;
}

function setLive(ok) {
  liveIndicator.className = `live ${ok ? "on" : "off"}`;
  liveIndicator.textContent = ok ? `live · ${new Date().toLocaleTimeString()}` : "offline";
}

// ---------------------------------------------------------------------------
// Overview

/** Green when the engine says all is well, amber when it runs degraded (MQTT down), red when it is not up. */
function engineTone(status, engineUp) {
  if (!status || !engineUp) return "bad";
  return isUp(status.status) ? "ok" : "warn";
}

const overview = {
  root: null,
  build() {
    const panel = panels.overview;
    this.stats = h("div", { className: "stats", id: "overview-stats" });
    this.errors = h("div", { id: "overview-errors" });
    this.automations = h("div", { id: "overview-automations" });
    this.services = h("div", { id: "overview-services" });
    // Outside the table the poll redraws, so a pairing result stays readable.
    this.pairNote = h("p", { id: "overview-pair-note", className: "muted", "aria-live": "polite" });
    append(panel, [
      this.stats,
      h("div", { className: "card" }, h("h3", {}, "Automations"), this.automations),
      h("div", { className: "card" }, h("h3", {}, "Services"), this.services, this.pairNote),
      h("div", { className: "card" }, h("h3", {}, "Recent errors"), this.errors),
    ]);
    homeKit.build(panel);
    this.root = panel;
  },
  async refresh(status) {
    if (!this.root) this.build();
    const [automations, errors, services] = await Promise.all([
      api("/automations"),
      api("/logs?level=50&limit=10"),
      api("/services"),
    ]);
    this.renderStats(status, automations.ok ? automations.body : null);
    this.renderAutomations(automations.ok ? automations.body.automations : null);
    this.renderServices(services.ok ? services.body.services : null);
    this.renderErrors(errors.ok ? errors.body.entries : null);
    await homeKit.refresh();
  },
  renderStats(status, automations) {
    const list = automations?.automations || [];
    const runs = list.reduce((sum, item) => sum + (item.stats?.runs || 0), 0);
    const failures = list.reduce((sum, item) => sum + (item.stats?.errors || 0), 0);
    const engineUp = status && isUp(status.checks?.engine ?? status.status);
    const mqttUp = status && isUp(status.checks?.mqtt);
    const stat = (label, value, sub, id) =>
      h(
        "div",
        { className: "card stat", id },
        h("div", { className: "label" }, label),
        h("div", { className: "value" }, value),
        sub ? h("div", { className: "sub" }, sub) : null,
      );
    replaceChildren(
      this.stats,
      stat(
        "Engine",
        badge(status ? String(status.status ?? "unknown") : "unreachable", engineTone(status, engineUp)),
        status?.version ? `version ${status.version}` : null,
        "stat-engine",
      ),
      stat("MQTT", badge(mqttUp ? "connected" : "disconnected", mqttUp ? "ok" : "bad"), null, "stat-mqtt"),
      stat(
        "Uptime",
        formatDuration(status?.uptimeSeconds),
        status?.startedAt ? `since ${formatTime(status.startedAt)}` : null,
        "stat-uptime",
      ),
      stat(
        "Automations",
        String(status?.automations?.registered ?? list.filter((item) => item.status === "running").length),
        `${status?.automations?.failed ?? list.filter((item) => item.status === "failed").length} failed · ${runs} runs · ${failures} errors`,
        "stat-automations",
      ),
    );
  },
  renderAutomations(list) {
    if (!list) {
      replaceChildren(this.automations, h("p", { className: "muted" }, "Could not load automations."));
      return;
    }
    if (list.length === 0) {
      replaceChildren(this.automations, h("p", { className: "empty" }, "No automations registered."));
      return;
    }
    const rows = list.map((item) =>
      h(
        "tr",
        {},
        h("td", {}, h("a", { href: "#automations", className: "mono" }, item.name)),
        h("td", {}, badge(item.status, item.status === "running" ? "ok" : "bad")),
        h("td", {}, String(item.stats?.runs ?? 0)),
        h("td", {}, String(item.stats?.errors ?? 0)),
        h(
          "td",
          { className: "hide-narrow", title: formatTime(item.stats?.lastRunAt) },
          relativeTime(item.stats?.lastRunAt),
        ),
      ),
    );
    replaceChildren(
      this.automations,
      h(
        "div",
        { className: "table-wrap" },
        h(
          "table",
          {},
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", {}, "Name"),
              h("th", {}, "Status"),
              h("th", {}, "Runs"),
              h("th", {}, "Errors"),
              h("th", { className: "hide-narrow" }, "Last run"),
            ),
          ),
          h("tbody", {}, rows),
        ),
      ),
    );
  },
  renderServices(list) {
    if (!list) {
      replaceChildren(this.services, h("p", { className: "muted" }, "Could not load the services."));
      return;
    }
    if (list.length === 0) {
      replaceChildren(
        this.services,
        h(
          "p",
          { className: "empty" },
          "No services configured. Set NTFY_TOPIC, WEATHER_LATITUDE/LONGITUDE, SHELLY_DEVICES or NANOLEAF_PANELS.",
        ),
      );
      return;
    }
    const health = (item) => {
      if (!item.configured) return badge("not configured", "warn");
      if (item.reachable === true) return badge("reachable", "ok");
      if (item.reachable === false) return badge("unreachable", "bad");
      return badge("not used yet", "warn");
    };
    const rows = list.map((item) =>
      h(
        "tr",
        { "data-service": item.key },
        h("td", {}, h("span", { className: "mono" }, item.key)),
        h("td", {}, item.provider),
        h("td", {}, health(item)),
        h("td", { className: "hide-narrow", title: formatTime(item.lastSuccessAt) }, relativeTime(item.lastSuccessAt)),
        h(
          "td",
          { className: "service-error", title: formatTime(item.lastErrorAt) },
          item.lastError ?? "—",
          this.pairButtons(item),
        ),
      ),
    );
    replaceChildren(
      this.services,
      h(
        "div",
        { className: "table-wrap" },
        h(
          "table",
          {},
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", {}, "Key"),
              h("th", {}, "Provider"),
              h("th", {}, "Status"),
              h("th", { className: "hide-narrow" }, "Last success"),
              h("th", {}, "Last error"),
            ),
          ),
          h("tbody", {}, rows),
        ),
      ),
    );
  },
  /** Nanoleaf panels without a token get a button that pairs them (the panel must be in pairing mode). */
  pairButtons(item) {
    if (item.key !== "lightPanels" || !Array.isArray(item.config?.panels)) return null;
    const unpaired = item.config.panels.filter((panel) => panel && panel.paired === false);
    if (unpaired.length === 0) return null;
    const result = this.pairNote;
    const buttons = unpaired.map((panel) =>
      h(
        "button",
        {
          type: "button",
          title: "Hold the panel's power button 5–7 s until it flashes, then press this within 30 s",
          onclick: async () => {
            result.className = "muted";
            result.textContent = `Pairing ${panel.name}…`;
            const response = await api(`/services/lightPanels/${encodeURIComponent(panel.name)}/pair`, {
              method: "POST",
            });
            result.className = response.ok ? "form-ok" : "form-error";
            result.textContent = response.ok ? `${panel.name} paired.` : `Not paired: ${errorMessage(response)}`;
          },
        },
        `Pair ${panel.name}`,
      ),
    );
    return h("div", { className: "row pair-panels" }, buttons);
  },
  renderErrors(entries) {
    if (!entries) {
      replaceChildren(this.errors, h("p", { className: "muted" }, "Could not load the log."));
      return;
    }
    if (entries.length === 0) {
      replaceChildren(this.errors, h("p", { className: "empty" }, "No errors logged. 🎉"));
      return;
    }
    replaceChildren(this.errors, h("ul", { className: "log-list" }, entries.map(logLine)));
  },
};

// HomeKit bridge: bridges, ports, accessory counts; the setup code and its QR code once logged in.
const homeKit = {
  card: null,
  body: null,
  build(panel) {
    this.body = h("div", { id: "overview-homekit" });
    this.card = h("div", { className: "card", id: "homekit-card", hidden: true }, h("h3", {}, "HomeKit"), this.body);
    append(panel, [this.card]);
  },
  async refresh() {
    const result = await api("/homekit");
    // 404: no bridge configured, so the card stays hidden.
    this.card.hidden = result.status === 404;
    if (result.status === 404) return;
    if (!result.ok) {
      replaceChildren(
        this.body,
        h("p", { className: "muted" }, `Could not load the HomeKit bridge: ${errorMessage(result)}`),
      );
      return;
    }
    this.render(result.body);
  },
  render(report) {
    const code = report.setupCode
      ? h("p", {}, "Setup code ", h("strong", { className: "mono", id: "homekit-setup-code" }, report.setupCode))
      : h("p", { className: "muted", id: "homekit-setup-code-hidden" }, report.setupCodeHidden || "Setup code hidden.");
    const bridges = (report.bridges || []).map((bridge) =>
      h(
        "div",
        { className: "homekit-bridge" },
        h(
          "p",
          {},
          h("strong", {}, bridge.name),
          " ",
          badge(bridge.port === null ? "not listening" : `port ${bridge.port}`, bridge.port === null ? "bad" : "ok"),
          " ",
          badge(bridge.paired ? "paired" : "not paired", bridge.paired ? "ok" : "warn"),
          ` · ${bridge.accessories} accessories · `,
          h("span", { className: "mono" }, bridge.username),
        ),
        bridge.setupQr
          ? h(
              "figure",
              { className: "homekit-qr" },
              h("img", {
                src: bridge.setupQr,
                alt: `HomeKit setup QR code for ${bridge.name}`,
                width: 160,
                height: 160,
              }),
              h("figcaption", { className: "mono" }, bridge.setupUri),
            )
          : null,
      ),
    );
    replaceChildren(
      this.body,
      h(
        "p",
        {},
        badge(report.reachable ? "listening" : "not listening", report.reachable ? "ok" : "bad"),
        ` ${report.accessories} accessories on ${report.bridges.length} bridge${report.bridges.length === 1 ? "" : "s"}`,
      ),
      report.lastError ? h("p", { className: "muted" }, `Last error: ${report.lastError}`) : null,
      code,
      bridges,
      report.setupCode
        ? h(
            "p",
            { className: "muted" },
            "In the Home app: Add Accessory, then scan a bridge's QR code or enter the setup code.",
          )
        : null,
    );
  },
};

// ---------------------------------------------------------------------------
// Automations

function describeTrigger(trigger) {
  const filter = trigger.hasFilter ? " (filtered)" : "";
  switch (trigger.type) {
    case "mqtt":
      return `mqtt ${trigger.topic}${filter}`;
    case "cron":
      return `cron ${trigger.expression}`;
    case "state":
      return `state ${trigger.key}${filter}`;
    case "webhook":
      return `webhook ${(trigger.methods || ["POST"]).join(",")} /webhook/${String(trigger.path || "").replace(/^\//, "")}`;
    case "device_state":
      return `device_state ${trigger.friendlyName}${filter}`;
    case "device_joined":
    case "device_left":
      return `${trigger.type} ${trigger.friendlyName || "any device"}`;
    case "inventory":
      return `inventory ${(trigger.events || ["any event"]).join(",")}${trigger.householdId ? ` of ${trigger.householdId}` : ""}${filter}`;
    default:
      return compactJson(trigger);
  }
}

function sampleDevice(friendlyName) {
  return { ieee_address: "0x00124b0000000000", friendly_name: friendlyName || "test-device", type: "EndDevice" };
}

/** A context of `type` to start editing from, filled from the automation's own trigger of that type when it has one. */
function contextTemplate(type, triggers) {
  const trigger = (triggers || []).find((candidate) => candidate.type === type) || {};
  switch (type) {
    case "mqtt":
      return {
        type,
        topic: String(trigger.topic || "test/topic")
          .replace(/#$/, "test")
          .replace(/\+/g, "test"),
        payload: {},
      };
    case "cron":
      return { type, expression: trigger.expression || "* * * * *", firedAt: new Date().toISOString() };
    case "state":
      return { type, key: trigger.key || "some-key", newValue: true, oldValue: null };
    case "webhook":
      return {
        type,
        path: String(trigger.path || "test").replace(/^\//, ""),
        method: (trigger.methods || ["POST"])[0],
        headers: {},
        query: {},
        body: {},
      };
    case "device_state":
      return {
        type,
        friendlyName: trigger.friendlyName || "test-device",
        state: {},
        device: sampleDevice(trigger.friendlyName),
      };
    case "inventory":
      return {
        type,
        event: {
          type: (trigger.events || ["item.created"])[0],
          householdId: trigger.householdId || "test-household",
          data: {
            item: {
              id: "test-item",
              name: "Peas",
              quantity: 1,
              freezerId: "test-freezer",
              compartmentId: "test-compartment",
              expiresAt: null,
              archived: false,
            },
          },
        },
      };
    default:
      return { type, device: sampleDevice(trigger.friendlyName) };
  }
}

function cardKey(item) {
  return `${item.status}\n${item.name}\n${item.file || ""}`;
}

let idCounter = 0;

/** A DOM id that no API value can collide with (names and keys may differ only in characters ids cannot hold). */
function uniqueId(prefix) {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

function parseJson(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error.message };
  }
}

const automations = {
  root: null,
  cards: new Map(),
  build() {
    this.filter = h("input", {
      type: "search",
      id: "automation-filter",
      placeholder: "Filter by name",
      oninput: () => this.applyFilter(),
    });
    this.summary = h("p", { className: "muted", id: "automation-summary" });
    this.grid = h("div", { className: "automation-grid", id: "automation-grid" });
    append(panels.automations, [
      h(
        "div",
        { className: "toolbar" },
        h(
          "div",
          { className: "field grow" },
          h("label", { for: "automation-filter" }, "Search automations"),
          this.filter,
        ),
      ),
      this.summary,
      this.grid,
    ]);
    this.root = panels.automations;
  },
  async refresh() {
    if (!this.root) this.build();
    const result = await api("/automations");
    if (!result.ok) {
      this.summary.textContent = `Could not load automations: ${errorMessage(result)}`;
      return;
    }
    const list = result.body.automations || [];
    const failed = list.filter((item) => item.status === "failed").length;
    this.summary.textContent = `${list.length} automation${list.length === 1 ? "" : "s"}${failed ? `, ${failed} failed to load` : ""}.`;
    const seen = new Set();
    for (const item of list) {
      // A duplicate name is a load failure, so one name can appear twice (running and failed).
      const key = cardKey(item);
      seen.add(key);
      let card = this.cards.get(key);
      if (!card) {
        card = this.createCard(item);
        this.cards.set(key, card);
        this.grid.append(card.root);
      }
      this.updateCard(card, item);
    }
    for (const [key, card] of this.cards) {
      if (!seen.has(key)) {
        card.root.remove();
        this.cards.delete(key);
      }
    }
    if (list.length === 0) replaceChildren(this.grid, h("p", { className: "empty" }, "No automations registered."));
    this.applyFilter();
  },
  applyFilter() {
    const needle = this.filter.value.trim().toLowerCase();
    for (const card of this.cards.values())
      card.root.hidden = needle !== "" && !card.item.name.toLowerCase().includes(needle);
  },
  createCard(item) {
    const id = uniqueId("automation");
    const card = { root: null, item };
    card.status = h("span");
    card.file = h("div", { className: "file" });
    card.triggers = h("ul", { className: "triggers", "aria-label": "Triggers" });
    card.kv = h("dl", { className: "kv" });
    card.error = h("p", { className: "error-text", hidden: true });
    card.reloadError = h("p", { className: "error-text reload-error", hidden: true });
    card.warnings = h("div", { className: "type-warnings", hidden: true });
    card.form = this.createTriggerForm(item, id);
    card.traces = this.createTraceView(item, id);
    card.root = h(
      "article",
      { className: "card automation", id, "data-name": item.name, "data-status": item.status },
      h("header", {}, h("div", {}, h("h3", {}, item.name), card.file), card.status),
      card.triggers,
      card.kv,
      card.error,
      card.reloadError,
      card.warnings,
      card.traces.root,
      card.form.root,
    );
    return card;
  },
  updateCard(card, item) {
    card.item = item;
    replaceChildren(card.status, badge(item.status, item.status === "running" ? "ok" : "bad"));
    // The last two path segments say enough on a card; the full path stays in the tooltip.
    card.file.textContent = item.file ? item.file.split(/[\\/]/).slice(-2).join("/") : "registered in code";
    card.file.title = item.file || "";
    replaceChildren(
      card.triggers,
      (item.triggers || []).map((trigger) => h("li", { className: "trigger" }, describeTrigger(trigger))),
    );
    const stats = item.stats || {};
    const pair = (label, value, title) => [h("dt", {}, label), h("dd", { title }, value)];
    replaceChildren(
      card.kv,
      pair("Runs", String(stats.runs ?? 0)),
      pair("Errors", String(stats.errors ?? 0)),
      pair("Last run", relativeTime(stats.lastRunAt), formatTime(stats.lastRunAt)),
      pair(
        "Last duration",
        stats.lastDurationMs === null || stats.lastDurationMs === undefined
          ? "—"
          : `${Math.round(stats.lastDurationMs * 10) / 10} ms`,
      ),
      pair("Last error", stats.lastError ? h("span", { className: "error-text" }, stats.lastError) : "none"),
      item.mode ? pair("Mode", item.max ? `${item.mode} (max ${item.max})` : item.mode) : [],
      stats.dropped ? pair("Dropped", String(stats.dropped), "Firings the run mode turned away") : [],
      rejectedTotal(item)
        ? pair("Filtered out", String(rejectedTotal(item)), "Trigger events a filter rejected; see Recent runs")
        : [],
    );
    const reloadError = item.reloadError?.message;
    card.reloadError.hidden = !reloadError;
    card.reloadError.textContent = reloadError
      ? `Reload failed ${relativeTime(item.reloadError.at)}; the previous version keeps running: ${reloadError}`
      : "";
    const warnings = item.typeWarnings || [];
    card.warnings.hidden = warnings.length === 0;
    replaceChildren(
      card.warnings,
      warnings.length
        ? h("p", {}, badge(`${warnings.length} type warning${warnings.length === 1 ? "" : "s"}`, "warn"))
        : null,
      h(
        "ul",
        { "aria-label": "Type warnings" },
        warnings.map((warning) =>
          h(
            "li",
            { className: "type-warning" },
            h("span", { className: "mono" }, `${fileName(warning.file)}:${warning.line}:${warning.column}`),
            ` TS${warning.code}: ${warning.message}`,
          ),
        ),
      ),
    );
    card.traces.root.hidden = item.status !== "running";
    if (card.traces.root.open) card.traces.load();
    const loadError = item.status === "failed" ? item.error || "failed to load" : null;
    card.error.hidden = !loadError;
    card.error.textContent = loadError ? `Not registered: ${loadError}` : "";
    card.form.setDisabled(item.status !== "running");
    card.form.root.hidden = item.status !== "running";
  },
  /** "Recent runs": loaded when opened, refreshed with the page while open. */
  createTraceView(item, id) {
    const body = h("div", { className: "traces", id: `${id}-traces` }, h("p", { className: "muted" }, "Loading…"));
    const root = h("details", { className: "trace-view" }, h("summary", {}, "Recent runs"), body);
    const load = async () => {
      const result = await api(`/automations/${encodeURIComponent(item.name)}/traces`);
      if (!result.ok) {
        replaceChildren(body, h("p", { className: "error-text" }, `Could not load runs: ${errorMessage(result)}`));
        return;
      }
      renderTraces(body, result.body);
    };
    root.addEventListener("toggle", () => {
      if (root.open) load();
    });
    return { root, load };
  },
  createTriggerForm(item, id) {
    const typeSelect = h(
      "select",
      { id: `${id}-type`, name: "type" },
      TRIGGER_TYPES.map((type) => h("option", { value: type }, type)),
    );
    const firstType = item.triggers?.[0]?.type;
    if (TRIGGER_TYPES.includes(firstType)) typeSelect.value = firstType;
    const textarea = h("textarea", {
      id: `${id}-context`,
      name: "context",
      rows: 8,
      spellcheck: "false",
      "aria-describedby": `${id}-result`,
    });
    const result = h("p", { id: `${id}-result`, className: "muted", "aria-live": "polite" });
    const run = h("button", { type: "submit", className: "primary" }, "Run now");
    const fill = () => {
      textarea.value = json(contextTemplate(typeSelect.value, item.triggers));
      validate();
    };
    const validate = () => {
      const parsed = parseJson(textarea.value);
      textarea.setAttribute("aria-invalid", String(!parsed.ok));
      run.disabled = !parsed.ok || form.dataset.disabled === "true";
      if (!parsed.ok) {
        result.className = "form-error";
        result.textContent = `Invalid JSON: ${parsed.error}`;
      } else if (result.className === "form-error" && result.textContent.startsWith("Invalid JSON")) {
        result.className = "muted";
        result.textContent = "";
      }
      return parsed;
    };
    typeSelect.addEventListener("change", fill);
    textarea.addEventListener("input", validate);
    const form = h(
      "form",
      {
        onsubmit: async (event) => {
          event.preventDefault();
          const parsed = validate();
          if (!parsed.ok) return;
          run.disabled = true;
          result.className = "muted";
          result.textContent = "Running…";
          try {
            const response = await api(`/automations/${encodeURIComponent(item.name)}/trigger`, {
              method: "POST",
              body: parsed.value,
            });
            result.className = response.ok ? "form-ok" : "form-error";
            result.textContent = response.ok
              ? `Ran at ${new Date().toLocaleTimeString()}.`
              : `Failed: ${errorMessage(response)}`;
          } catch (error) {
            if (error instanceof SignedOut) return;
            result.className = "form-error";
            result.textContent = `Failed: ${error.message}`;
          } finally {
            run.disabled = false;
          }
          refresh();
        },
      },
      h("div", { className: "field" }, h("label", { for: typeSelect.id }, "Trigger type"), typeSelect),
      h("div", { className: "field" }, h("label", { for: textarea.id }, "Context (JSON)"), textarea),
      h("div", { className: "row" }, run, h("button", { type: "button", onclick: fill }, "Reset template")),
      result,
    );
    fill();
    return {
      root: h("details", { className: "trigger-form" }, h("summary", {}, "Run manually"), form),
      setDisabled(disabled) {
        form.dataset.disabled = String(disabled);
        if (disabled) run.disabled = true;
        else if (run.textContent === "Run now" && result.textContent !== "Running…")
          run.disabled = !parseJson(textarea.value).ok;
      },
    };
  },
};

function fileName(file) {
  return file ? file.split(/[\\/]/).slice(-2).join("/") : "";
}

function rejectedTotal(item) {
  return (item.rejected || []).reduce((total, entry) => total + entry.count, 0);
}

function traceSection(title, items, render) {
  if (!items || items.length === 0) return null;
  return h(
    "div",
    { className: "trace-section" },
    h("h4", {}, title),
    h(
      "ul",
      {},
      items.map((item) => h("li", { className: "mono" }, render(item))),
    ),
  );
}

function renderTraces(container, data) {
  const rejected = (data.rejected || []).map((entry) =>
    h(
      "p",
      { className: "rejected" },
      badge(`${entry.count} filtered out`, "warn"),
      ` by trigger ${entry.trigger + 1}, last ${relativeTime(entry.lastAt)}: `,
      h("code", {}, compactJson(entry.lastPayload)),
    ),
  );
  const traces = data.traces || [];
  const runs = traces.map((trace) => {
    const tone =
      trace.status === "ok" ? "ok" : trace.status === "error" ? "bad" : trace.status === "aborted" ? "warn" : "info";
    const duration = trace.durationMs === null ? "running" : `${Math.round(trace.durationMs * 10) / 10} ms`;
    return h(
      "details",
      { className: "trace", "data-status": trace.status },
      h(
        "summary",
        {},
        badge(trace.status, tone),
        ` ${trace.trigger?.type ?? "?"} · ${relativeTime(trace.startedAt)} · ${duration}`,
      ),
      h("div", { className: "trace-section" }, h("h4", {}, "Trigger"), h("pre", {}, json(trace.trigger))),
      trace.error
        ? h(
            "div",
            { className: "trace-section" },
            h("h4", {}, "Error"),
            h("pre", { className: "error-text" }, trace.error.stack || trace.error.message),
          )
        : null,
      traceSection(
        "Log",
        trace.logs,
        (line) => `${line.level} ${line.msg}${line.fields === undefined ? "" : ` ${compactJson(line.fields)}`}`,
      ),
      traceSection("Published", trace.published, (message) => `${message.topic} ${compactJson(message.payload)}`),
      traceSection("State changed", trace.stateChanges, (change) =>
        change.deleted ? `${change.key} deleted` : `${change.key} = ${compactJson(change.newValue)}`,
      ),
      traceSection(
        "Service calls",
        trace.serviceCalls,
        (call) => `${call.service}.${call.method}(${compactJson(call.args).slice(1, -1)})`,
      ),
    );
  });
  replaceChildren(container, rejected, runs.length ? runs : h("p", { className: "empty" }, "No runs yet."));
}

// ---------------------------------------------------------------------------
// Devices

function deviceState(device) {
  return device.state ?? device.merged_state ?? device.lastState ?? null;
}

/** A device's merged state as `key value` chips; nested values stay JSON. */
function stateChips(state) {
  if (typeof state !== "object" || state === null) return h("pre", {}, json(state));
  return h(
    "div",
    { className: "chips" },
    Object.entries(state).map(([key, value]) =>
      h(
        "span",
        { className: "chip", "data-field": key },
        h("span", { className: "k" }, key),
        typeof value === "string" ? value : compactJson(value),
      ),
    ),
  );
}

const devices = {
  root: null,
  list: [],
  build() {
    this.search = h("input", {
      type: "search",
      id: "device-search",
      placeholder: "Name, model, vendor, address…",
      oninput: () => this.render(),
    });
    this.summary = h("p", { className: "muted", id: "device-summary" });
    this.body = h("div", { id: "device-list" });
    this.toolbar = h(
      "div",
      { className: "toolbar" },
      h("div", { className: "field grow" }, h("label", { for: "device-search" }, "Search devices"), this.search),
    );
    append(panels.devices, [this.toolbar, this.summary, h("div", { className: "card" }, this.body)]);
    this.root = panels.devices;
  },
  async refresh() {
    if (!this.root) this.build();
    const result = await api("/devices");
    this.toolbar.hidden = result.status === 503;
    if (result.status === 503) {
      this.list = null;
      this.summary.textContent = "";
      replaceChildren(
        this.body,
        h(
          "div",
          { id: "devices-disabled", role: "note" },
          h("h3", {}, "The device registry is turned off"),
          h(
            "p",
            {},
            "Hearth only tracks Zigbee devices when DEVICE_REGISTRY_ENABLED is true. With it off, device_state, device_joined and device_left triggers are skipped (with a warning at start-up) while every other trigger keeps working. Set DEVICE_REGISTRY_ENABLED=true and restart to see the devices your Zigbee2MQTT bridge reports.",
          ),
          h("p", { className: "muted" }, `Engine says: ${errorMessage(result)}`),
        ),
      );
      return;
    }
    if (!result.ok) {
      this.summary.textContent = `Could not load devices: ${errorMessage(result)}`;
      return;
    }
    this.list = result.body.devices || [];
    this.render();
  },
  render() {
    if (!this.list) return;
    const needle = this.search.value.trim().toLowerCase();
    const matches = this.list.filter((device) => {
      if (!needle) return true;
      const haystack = [
        device.friendly_name,
        device.niceName,
        device.nice_name,
        device.ieee_address,
        device.model_id,
        device.manufacturer,
        device.definition?.model,
        device.definition?.vendor,
        device.definition?.description,
      ]
        .filter(Boolean)
        .join(" ")
        .toLowerCase();
      return haystack.includes(needle);
    });
    this.summary.textContent = `${matches.length} of ${this.list.length} device${this.list.length === 1 ? "" : "s"}.`;
    if (matches.length === 0) {
      replaceChildren(
        this.body,
        h(
          "p",
          { className: "empty" },
          this.list.length ? "No device matches the search." : "No devices reported by the bridge yet.",
        ),
      );
      return;
    }
    const rows = matches.map((device) => {
      const state = deviceState(device);
      const nice = device.niceName || device.nice_name;
      return h(
        "tr",
        { "data-device": device.friendly_name },
        h(
          "td",
          {},
          h("strong", {}, nice || device.friendly_name),
          nice && nice !== device.friendly_name ? h("div", { className: "muted mono" }, device.friendly_name) : null,
          h("div", { className: "muted mono" }, device.ieee_address),
        ),
        h(
          "td",
          { className: "hide-narrow" },
          device.definition?.vendor || device.manufacturer || "—",
          h("div", { className: "muted" }, device.definition?.model || device.model_id || ""),
        ),
        h(
          "td",
          { className: "hide-narrow" },
          device.type || "—",
          device.power_source ? h("div", { className: "muted" }, device.power_source) : null,
        ),
        h(
          "td",
          {},
          state && Object.keys(state).length > 0
            ? stateChips(state)
            : h("span", { className: "muted" }, "no state yet"),
        ),
      );
    });
    replaceChildren(
      this.body,
      h(
        "div",
        { className: "table-wrap" },
        h(
          "table",
          { id: "device-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", {}, "Device"),
              h("th", { className: "hide-narrow" }, "Model"),
              h("th", { className: "hide-narrow" }, "Type"),
              h("th", {}, "State"),
            ),
          ),
          h("tbody", {}, rows),
        ),
      ),
    );
  },
};

// ---------------------------------------------------------------------------
// State

const state = {
  root: null,
  rows: new Map(),
  build() {
    const key = h("input", {
      id: "state-new-key",
      name: "key",
      required: true,
      autocomplete: "off",
      placeholder: "e.g. away-mode",
    });
    const value = h(
      "textarea",
      { id: "state-new-value", name: "value", rows: 3, spellcheck: "false", "aria-describedby": "state-new-result" },
      "true",
    );
    const result = h("p", { id: "state-new-result", className: "muted", "aria-live": "polite" });
    const save = h("button", { type: "submit", className: "primary" }, "Set value");
    const validate = () => {
      const parsed = parseJson(value.value);
      value.setAttribute("aria-invalid", String(!parsed.ok));
      save.disabled = !parsed.ok;
      result.className = parsed.ok ? "muted" : "form-error";
      result.textContent = parsed.ok ? "" : `Invalid JSON: ${parsed.error}`;
      return parsed;
    };
    value.addEventListener("input", validate);
    const form = h(
      "form",
      {
        className: "card state-editor",
        id: "state-add",
        onsubmit: async (event) => {
          event.preventDefault();
          const parsed = validate();
          const name = key.value.trim();
          if (!parsed.ok || !name) return;
          const response = await api(`/state/${encodeURIComponent(name)}`, {
            method: "PUT",
            body: { value: parsed.value },
          });
          result.className = response.ok ? "form-ok" : "form-error";
          result.textContent = response.ok ? `Saved ${name}.` : `Failed: ${errorMessage(response)}`;
          if (response.ok) key.value = "";
          this.refresh();
        },
      },
      h("h3", {}, "Add or replace a key"),
      h("div", { className: "field" }, h("label", { for: key.id }, "Key"), key),
      h("div", { className: "field" }, h("label", { for: value.id }, "Value (JSON)"), value),
      h("div", { className: "row" }, save),
      result,
    );
    this.summary = h("p", { className: "muted", id: "state-summary" });
    this.tbody = h("tbody", {});
    this.table = h(
      "div",
      { className: "card" },
      h(
        "div",
        { className: "table-wrap" },
        h(
          "table",
          { id: "state-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", {}, "Key"),
              h("th", {}, "Value"),
              h("th", {}, h("span", { className: "visually-hidden" }, "Actions")),
            ),
          ),
          this.tbody,
        ),
      ),
    );
    append(panels.state, [this.summary, this.table, form]);
    this.root = panels.state;
  },
  async refresh() {
    if (!this.root) this.build();
    const result = await api("/state");
    if (!result.ok) {
      this.summary.textContent = `Could not load state: ${errorMessage(result)}`;
      return;
    }
    const entries = Object.entries(result.body.state || {}).sort(([a], [b]) => a.localeCompare(b));
    this.summary.textContent = `${entries.length} key${entries.length === 1 ? "" : "s"}.`;
    const seen = new Set();
    let previous = null;
    for (const [key, value] of entries) {
      seen.add(key);
      let row = this.rows.get(key);
      if (!row) {
        row = this.createRow(key);
        this.rows.set(key, row);
      }
      // Keep rows in key order without rebuilding them, so an open editor survives a refresh.
      const anchor = previous ? previous.root.nextSibling : this.tbody.firstChild;
      if (row.root !== anchor) this.tbody.insertBefore(row.root, anchor);
      row.update(value);
      previous = row;
    }
    for (const [key, row] of this.rows) {
      if (!seen.has(key)) {
        row.root.remove();
        this.rows.delete(key);
      }
    }
    if (entries.length === 0) this.summary.textContent = "No state keys yet. Add one above.";
  },
  createRow(key) {
    const id = uniqueId("state");
    const valueCell = h("td", { className: "value" });
    const actions = h("div", { className: "state-actions" });
    const root = h(
      "tr",
      { "data-key": key, id },
      h("td", { className: "mono key" }, key),
      valueCell,
      h("td", { className: "actions" }, actions),
    );
    const row = { root, editing: false, confirming: false, value: undefined };
    const showValue = () => {
      row.editing = false;
      row.confirming = false;
      replaceChildren(valueCell, h("pre", {}, json(row.value)));
      replaceChildren(
        actions,
        h("button", { type: "button", onclick: edit, "aria-label": `Edit ${key}` }, "Edit"),
        h(
          "button",
          { type: "button", className: "danger", onclick: askDelete, "aria-label": `Delete ${key}` },
          "Delete",
        ),
      );
    };
    const edit = () => {
      row.editing = true;
      const textarea = h("textarea", {
        id: `${id}-editor`,
        rows: 4,
        spellcheck: "false",
        "aria-label": `Value of ${key} (JSON)`,
      });
      textarea.value = json(row.value);
      const message = h("p", { className: "muted", "aria-live": "polite" });
      const save = h("button", { type: "button", className: "primary" }, "Save");
      const validate = () => {
        const parsed = parseJson(textarea.value);
        textarea.setAttribute("aria-invalid", String(!parsed.ok));
        save.disabled = !parsed.ok;
        message.className = parsed.ok ? "muted" : "form-error";
        message.textContent = parsed.ok ? "" : `Invalid JSON: ${parsed.error}`;
        return parsed;
      };
      textarea.addEventListener("input", validate);
      save.addEventListener("click", async () => {
        const parsed = validate();
        if (!parsed.ok) return;
        const response = await api(`/state/${encodeURIComponent(key)}`, {
          method: "PUT",
          body: { value: parsed.value },
        });
        if (!response.ok) {
          message.className = "form-error";
          message.textContent = `Failed: ${errorMessage(response)}`;
          return;
        }
        row.value = parsed.value;
        showValue();
        state.refresh();
      });
      replaceChildren(valueCell, textarea, message);
      replaceChildren(actions, save, h("button", { type: "button", onclick: showValue }, "Cancel"));
      textarea.focus();
    };
    const askDelete = () => {
      row.confirming = true;
      replaceChildren(
        actions,
        h(
          "button",
          { type: "button", className: "danger", onclick: remove, "aria-label": `Confirm delete ${key}` },
          "Confirm delete",
        ),
        h("button", { type: "button", onclick: showValue }, "Cancel"),
      );
    };
    const remove = async () => {
      const response = await api(`/state/${encodeURIComponent(key)}`, { method: "DELETE" });
      if (response.ok) {
        root.remove();
        state.rows.delete(key);
      }
      state.refresh();
    };
    row.update = (value) => {
      const changed = compactJson(value) !== compactJson(row.value) || valueCell.childElementCount === 0;
      row.value = value;
      if (changed && !row.editing && !row.confirming) showValue();
    };
    return row;
  },
};

// ---------------------------------------------------------------------------
// Logs

function logLine(entry) {
  const { level, time, msg, ...fields } = entry;
  const extra = Object.keys(fields).length ? ` ${compactJson(fields)}` : "";
  return h(
    "li",
    { "data-level": level },
    h("span", { className: "time", title: new Date(time).toLocaleString() }, new Date(time).toLocaleTimeString()),
    h("span", { className: `lvl lvl-${level}` }, LEVELS[level] || level),
    h("span", { className: "msg" }, msg, h("span", { className: "fields" }, extra)),
  );
}

const logs = {
  root: null,
  automationNames: "",
  build() {
    this.level = h(
      "select",
      { id: "log-level", onchange: () => this.refresh("filter") },
      h("option", { value: "" }, "all levels"),
      Object.entries(LEVELS).map(([value, name]) => h("option", { value }, `${name} and above`)),
    );
    this.automation = h(
      "select",
      { id: "log-automation", onchange: () => this.refresh("filter") },
      h("option", { value: "" }, "all automations"),
    );
    this.search = h("input", {
      type: "search",
      id: "log-search",
      placeholder: "Text in message or fields",
      oninput: () => this.render(true),
    });
    this.follow = h("input", {
      type: "checkbox",
      id: "log-follow",
      checked: true,
      onchange: () => this.refresh("filter"),
    });
    // The summary changes with every live entry; only changes the reader asked for are announced.
    this.summary = h("p", { className: "muted", id: "log-summary" });
    this.announcer = h("p", { className: "visually-hidden", id: "log-announcer", "aria-live": "polite" });
    this.list = h("ul", { className: "log-list", id: "log-list" });
    append(panels.logs, [
      h(
        "div",
        { className: "toolbar" },
        h("div", { className: "field" }, h("label", { for: "log-level" }, "Level"), this.level),
        h("div", { className: "field" }, h("label", { for: "log-automation" }, "Automation"), this.automation),
        h("div", { className: "field grow" }, h("label", { for: "log-search" }, "Search"), this.search),
        h("div", { className: "row" }, this.follow, h("label", { for: "log-follow" }, "Follow live")),
      ),
      this.summary,
      this.announcer,
      h("div", { className: "card" }, this.list),
    ]);
    this.root = panels.logs;
    this.entries = [];
  },
  async refresh(forced) {
    if (!this.root) this.build();
    if (!this.follow.checked && forced === "poll" && this.entries.length) return;
    const query = new URLSearchParams({ limit: "500" });
    if (this.level.value) query.set("level", this.level.value);
    if (this.automation.value) query.set("automation", this.automation.value);
    const [result, list] = await Promise.all([api(`/logs?${query}`), api("/automations")]);
    if (list.ok) this.updateAutomations((list.body.automations || []).map((item) => item.name));
    if (!result.ok) {
      this.summary.textContent = `Could not load logs: ${errorMessage(result)}`;
      return;
    }
    this.entries = result.body.entries || [];
    this.render(forced === "filter");
  },
  updateAutomations(listed) {
    // A failed duplicate repeats a running automation's name; the filter lists each name once.
    const names = [...new Set(listed)];
    const key = names.join("\n");
    if (key === this.automationNames) return;
    this.automationNames = key;
    const selected = this.automation.value;
    replaceChildren(
      this.automation,
      h("option", { value: "" }, "all automations"),
      names.map((name) => h("option", { value: name }, name)),
    );
    this.automation.value = names.includes(selected) ? selected : "";
  },
  render(announce) {
    const needle = this.search.value.trim().toLowerCase();
    const shown = needle
      ? this.entries.filter((entry) => compactJson(entry).toLowerCase().includes(needle))
      : this.entries;
    this.summary.textContent = `${shown.length} of ${this.entries.length} entries, newest first${this.follow.checked ? ", following live" : ", paused"}.`;
    if (announce) this.announcer.textContent = this.summary.textContent;
    if (shown.length === 0) {
      replaceChildren(this.list, h("li", { className: "empty" }, "No log entries match."));
      return;
    }
    replaceChildren(this.list, shown.map(logLine));
  },
};

// ---------------------------------------------------------------------------
// Polling loop

const views = { overview, automations, devices, state, logs };
let inFlight = false;
let again = false;

/** Hot standby: this instance runs no automations while another one leads. */
function standbyText(status) {
  if (status?.role !== "standby") return null;
  return `This instance (${status.instance}) is a standby, leader is ${status.leader || "unknown"}. Automations run on the leader; this page shows this instance only.`;
}

async function refresh(reason) {
  if (inFlight) {
    // A tab switch or a save during a poll: run once more when the poll ends instead of overlapping it.
    again = true;
    return;
  }
  inFlight = true;
  try {
    const status = await api("/status");
    const body = status.body && typeof status.body === "object" ? status.body : null;
    // /api/status may answer 503 while MQTT is down and still carry the body the page needs.
    const mqttUp = body ? isUp(body.checks?.mqtt) : false;
    showBanner(
      body && !mqttUp
        ? "MQTT broker disconnected — MQTT and device triggers are paused until Hearth reconnects. Everything else on this page is still live."
        : standbyText(body),
      body && !mqttUp ? "warn" : "info",
    );
    if (current === "overview") await overview.refresh(body);
    else if (current === "logs") await logs.refresh(reason);
    else await views[current].refresh();
    setLive(true);
  } catch (error) {
    if (error instanceof SignedOut) return;
    setLive(false);
    showBanner("Cannot reach Hearth — retrying every few seconds.", "bad");
  } finally {
    inFlight = false;
    if (again) {
      again = false;
      refresh();
    }
  }
}

selectSection(window.location.hash.slice(1));
setInterval(() => {
  if (!document.hidden) refresh("poll");
}, POLL_MS);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) refresh("poll");
});
