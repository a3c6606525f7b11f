/**
 * The `lightPanels` service on the Nanoleaf OpenAPI (Nanoleaf's "OpenAPI" developer
 * documentation; port 16021): pairing with POST /api/v1/new, state with GET/PUT
 * /api/v1/<token>/state, effects with /api/v1/<token>/effects, identify with PUT
 * /api/v1/<token>/identify. Tokens sit in the URL path; the HTTP client masks that path
 * segment in its logs, and this service never logs or reports a token.
 */
import { z } from "zod";
import { ServiceCallError } from "../../../domain/automation/service-errors.js";
import type { HttpClient, HttpResponse } from "../../../ports/http-client.js";
import type { JsonStore } from "../../../ports/json-store.js";
import type { LightPanelInfo, LightPanelService, LightPanelState } from "../../../ports/light-panel-service.js";
import type { Logger } from "../../../ports/logger.js";
import type { ServiceHealthReport, ServiceHealthReporter } from "../../../ports/service-health.js";
import { describeError, HealthTracker } from "../health-tracker.js";

export interface NanoleafSettings {
  /** Panel names and their base URLs (`http://10.0.0.40:16021`). */
  panels: Record<string, string>;
  /** Tokens from configuration (NANOLEAF_TOKENS); they win over stored ones. */
  tokens?: Record<string, string>;
  /** Where tokens obtained by pairing are kept (DATA_DIR/nanoleaf-tokens.json); null keeps them in memory. */
  store?: JsonStore | null;
  timeoutMs?: number;
  now?: () => Date;
}

const range = z.looseObject({ value: z.number() });
const infoSchema = z.looseObject({
  name: z.string().optional(),
  model: z.string().optional(),
  firmwareVersion: z.string().optional(),
  state: z.looseObject({
    on: z.looseObject({ value: z.boolean() }),
    brightness: range,
    hue: range,
    sat: range,
    ct: range,
    colorMode: z.string().optional(),
  }),
  effects: z.looseObject({ select: z.string().optional() }).optional(),
});
const tokensSchema = z.record(z.string(), z.string());

const NO_EFFECT = new Set(["*Solid*", "*Static*", "*Dynamic*", ""]);

export class NanoleafLightPanels implements LightPanelService, ServiceHealthReporter {
  readonly serviceKey = "lightPanels";
  private readonly tokens = new Map<string, string>();
  private readonly health: HealthTracker;
  private readonly urls: Map<string, string>;

  constructor(
    private readonly http: HttpClient,
    private readonly logger: Logger,
    private readonly settings: NanoleafSettings,
  ) {
    this.health = new HealthTracker(settings.now);
    this.urls = new Map(Object.entries(settings.panels).map(([name, url]) => [name, url.replace(/\/+$/, "")]));
    for (const [name, token] of Object.entries(settings.tokens ?? {})) this.tokens.set(name, token);
  }

  /** Loads the tokens kept by earlier pairings. A broken file is moved aside, not trusted. */
  async onStart(): Promise<void> {
    const store = this.settings.store;
    if (!store) return;
    const document = await store.load();
    if (document === undefined) return;
    const parsed = tokensSchema.safeParse(document);
    if (!parsed.success) {
      const aside = await store.moveAside();
      this.logger.warn("The stored Nanoleaf tokens are not a name → token map; moved aside, pair again", {
        movedTo: aside,
      });
      return;
    }
    for (const [name, token] of Object.entries(parsed.data)) {
      if (this.urls.has(name) && !this.settings.tokens?.[name]) this.tokens.set(name, token);
    }
  }

  panels(): LightPanelInfo[] {
    return [...this.urls].map(([name, url]) => ({ name, url, paired: this.tokens.has(name) }));
  }

  hasPanel(name: string): boolean {
    return this.urls.has(name);
  }

  async pair(name: string): Promise<void> {
    const url = this.urlOf(name);
    const response = await this.send(name, `${url}/api/v1/new`, "POST");
    if (response.status === 403) {
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_NOT_READY",
        `Nanoleaf "${name}" is not in pairing mode: hold its power button for 5–7 seconds until the lights flash, then pair within 30 seconds`,
      );
    }
    const token = (response.data as { auth_token?: unknown })?.auth_token;
    if (!response.ok || typeof token !== "string" || token === "") throw this.failure(name, "pairing", response);
    this.tokens.set(name, token);
    await this.settings.store?.save(Object.fromEntries(this.tokens));
    this.logger.info("Nanoleaf panel paired; token stored", { panel: name });
  }

  turnOn(name: string): Promise<void> {
    return this.putState(name, { on: { value: true } });
  }

  turnOff(name: string): Promise<void> {
    return this.putState(name, { on: { value: false } });
  }

  setBrightness(name: string, brightness: number, durationSeconds?: number): Promise<void> {
    this.check("brightness", brightness, 0, 100);
    if (durationSeconds !== undefined) this.check("durationSeconds", durationSeconds, 0, 3600);
    return this.putState(name, {
      brightness: { value: brightness, ...(durationSeconds !== undefined ? { duration: durationSeconds } : {}) },
    });
  }

  setHueSaturation(name: string, hue: number, saturation: number): Promise<void> {
    this.check("hue", hue, 0, 360);
    this.check("saturation", saturation, 0, 100);
    return this.putState(name, { hue: { value: hue }, sat: { value: saturation } });
  }

  setColorTemperature(name: string, kelvin: number): Promise<void> {
    this.check("kelvin", kelvin, 1200, 6500);
    return this.putState(name, { ct: { value: kelvin } });
  }

  async getState(name: string): Promise<LightPanelState> {
    const response = await this.authorised(name, "/", "GET");
    const parsed = infoSchema.safeParse(response.data);
    if (!parsed.success) {
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_BAD_RESPONSE",
        `Nanoleaf "${name}" answered its info with an unexpected shape`,
      );
    }
    const { state, effects } = parsed.data;
    const effect = effects?.select ?? null;
    return {
      name,
      on: state.on.value,
      brightness: state.brightness.value,
      hue: state.hue.value,
      saturation: state.sat.value,
      colorTemperature: state.ct.value,
      colorMode: state.colorMode ?? "hs",
      effect: effect === null || NO_EFFECT.has(effect) ? null : effect,
      model: parsed.data.model ?? null,
      firmwareVersion: parsed.data.firmwareVersion ?? null,
    };
  }

  async listEffects(name: string): Promise<string[]> {
    const response = await this.authorised(name, "/effects/effectsList", "GET");
    const parsed = z.array(z.string()).safeParse(response.data);
    if (!parsed.success)
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_BAD_RESPONSE",
        `Nanoleaf "${name}" answered its effects list with an unexpected shape`,
      );
    return parsed.data;
  }

  async selectEffect(name: string, effect: string): Promise<void> {
    if (typeof effect !== "string" || effect.trim() === "") {
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_INVALID_ARGUMENT",
        "effect must be the name of one of the panel's effects",
      );
    }
    await this.authorised(name, "/effects", "PUT", { select: effect });
  }

  async currentEffect(name: string): Promise<string | null> {
    const response = await this.authorised(name, "/effects/select", "GET");
    const selected = response.data;
    return typeof selected === "string" && !NO_EFFECT.has(selected) ? selected : null;
  }

  async identify(name: string): Promise<void> {
    await this.authorised(name, "/identify", "PUT", {});
  }

  // ---- internals -----------------------------------------------------------------

  private check(what: string, value: number, min: number, max: number): void {
    if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_INVALID_ARGUMENT",
        `${what} must be from ${min} to ${max} (got ${value})`,
      );
    }
  }

  private urlOf(name: string): string {
    const url = this.urls.get(name);
    if (url === undefined) {
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_UNKNOWN_DEVICE",
        `No light panel named "${name}" (configured: ${[...this.urls.keys()].join(", ") || "none"}; see NANOLEAF_PANELS)`,
      );
    }
    return url;
  }

  private async putState(name: string, body: Record<string, unknown>): Promise<void> {
    await this.authorised(name, "/state", "PUT", body);
  }

  private async authorised(name: string, path: string, method: "GET" | "PUT", body?: unknown): Promise<HttpResponse> {
    const url = this.urlOf(name);
    const token = this.tokens.get(name);
    if (!token) {
      throw new ServiceCallError(
        "lightPanels",
        "SERVICE_NOT_READY",
        `Nanoleaf "${name}" is not paired: put it in pairing mode and call pair("${name}") (or POST /api/services/lightPanels/${name}/pair)`,
      );
    }
    const response = await this.send(name, `${url}/api/v1/${token}${path}`, method, body);
    if (!response.ok) throw this.failure(name, `${method} ${path}`, response);
    this.health.succeeded();
    return response;
  }

  private async send(name: string, url: string, method: "GET" | "PUT" | "POST", body?: unknown): Promise<HttpResponse> {
    try {
      return await this.http.request(url, {
        method,
        ...(body !== undefined ? { body } : {}),
        timeout: this.settings.timeoutMs ?? 5000,
        retries: method === "GET" ? 1 : 0,
      });
    } catch (error) {
      const message = `Nanoleaf "${name}" at ${this.urls.get(name)} unreachable: ${this.scrub(describeError(error))}`;
      this.health.failed(message, false);
      this.logger.warn("Nanoleaf request failed", { panel: name, error: message });
      throw new ServiceCallError("lightPanels", "SERVICE_UNREACHABLE", message);
    }
  }

  private failure(name: string, what: string, response: HttpResponse): ServiceCallError {
    const auth = response.status === 401 || response.status === 403;
    const message = auth
      ? `Nanoleaf "${name}" refused its token (${response.status}): pair it again`
      : `Nanoleaf "${name}" answered ${what} with ${response.status}`;
    this.health.failed(message, true);
    this.logger.warn("Nanoleaf request refused", { panel: name, status: response.status });
    return new ServiceCallError("lightPanels", auth ? "SERVICE_AUTH_FAILED" : "SERVICE_REQUEST_FAILED", message);
  }

  /** Error texts from the HTTP client can echo the URL, whose path holds the token. */
  private scrub(text: string): string {
    let scrubbed = text;
    for (const token of this.tokens.values()) scrubbed = scrubbed.split(token).join("***");
    return scrubbed;
  }

  serviceHealth(): ServiceHealthReport {
    return {
      provider: "nanoleaf",
      configured: this.urls.size > 0,
      ...this.health.snapshot(),
      config: {
        panels: this.panels().map((panel) => ({ ...panel, token: panel.paired ? "***" : null })),
      },
    };
  }
}
