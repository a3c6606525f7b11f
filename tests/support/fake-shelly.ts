/**
 * Fake Shelly Gen 2+ devices following https://shelly-api-docs.shelly.cloud/gen2/:
 * Switch.Set/Toggle/GetStatus and Cover.Open/Close/Stop/GoToPosition/GetStatus, with RPC
 * errors as `{ code, message }`.
 * - FakeShellyHttp: HTTP RPC (POST /rpc/<Method>) with optional digest auth (SHA-256,
 *   qop=auth, realm = device id), as the Authentication page describes.
 * - FakeShellyMqtt: a device on a real broker: requests on `<prefix>/rpc`, answers on
 *   `<src>/rpc`, NotifyStatus events on `<prefix>/events/rpc` after every change.
 */
import { randomBytes } from "node:crypto";
import mqtt from "mqtt";
import { verifyDigest } from "../../src/adapters/services/shelly/shelly-digest-auth.js";
import { FakeHttpServer, sendJson } from "./fake-http-server.js";

type SwitchState = {
  id: number;
  source: string;
  output: boolean;
  apower: number;
  voltage: number;
  current: number;
  temperature: { tC: number; tF: number };
};
type CoverState = {
  id: number;
  source: string;
  state: string;
  apower: number;
  current_pos: number | null;
  target_pos: number | null;
};
type RpcAnswer = { result: unknown } | { error: { code: number; message: string } };

/** The device's components and what its RPC methods do to them. */
export class ShellyDeviceModel {
  readonly switches = new Map<number, SwitchState>();
  readonly covers = new Map<number, CoverState>();
  readonly calls: { method: string; params: Record<string, unknown> }[] = [];
  private readonly listeners: ((component: string, status: unknown) => void)[] = [];

  constructor(
    readonly id: string,
    components: { switches?: number[]; covers?: number[] } = { switches: [0] },
  ) {
    for (const channel of components.switches ?? []) {
      this.switches.set(channel, {
        id: channel,
        source: "init",
        output: false,
        apower: 0,
        voltage: 230.1,
        current: 0,
        temperature: { tC: 41.2, tF: 106.2 },
      });
    }
    for (const channel of components.covers ?? []) {
      this.covers.set(channel, {
        id: channel,
        source: "init",
        state: "closed",
        apower: 0,
        current_pos: 0,
        target_pos: null,
      });
    }
  }

  onChange(listener: (component: string, status: unknown) => void): void {
    this.listeners.push(listener);
  }

  /** A physical press of the button: changes the output without any RPC. */
  press(channel = 0): void {
    const state = this.switches.get(channel);
    if (!state) return;
    state.output = !state.output;
    state.source = "button";
    this.changed(`switch:${channel}`, state);
  }

  /** The load on a switched-on channel changes: the device reports the new power figure alone. */
  meter(channel: number, watts: number): void {
    const state = this.switches.get(channel);
    if (!state) return;
    state.apower = watts;
    this.changed(`switch:${channel}`, { id: channel, apower: watts });
  }

  handle(method: string, params: Record<string, unknown>): RpcAnswer {
    this.calls.push({ method, params });
    const id = typeof params.id === "number" ? params.id : 0;
    const [component, action] = method.split(".");
    if (component === "Switch") {
      const state = this.switches.get(id);
      if (!state) return { error: { code: -105, message: `Argument 'id', value ${id} not found!` } };
      if (action === "GetStatus") return { result: { ...state } };
      const wasOn = state.output;
      if (action === "Set") {
        if (typeof params.on !== "boolean")
          return { error: { code: -103, message: "Missing required argument 'on'!" } };
        state.output = params.on;
      } else if (action === "Toggle") state.output = !state.output;
      else return { error: { code: 404, message: `No handler for ${method}` } };
      state.source = "HTTP_in";
      state.apower = state.output ? 1250.5 : 0;
      if (wasOn !== state.output)
        this.changed(`switch:${id}`, { id, output: state.output, source: state.source, apower: state.apower });
      return { result: { was_on: wasOn } };
    }
    if (component === "Cover") {
      const state = this.covers.get(id);
      if (!state) return { error: { code: -105, message: `Argument 'id', value ${id} not found!` } };
      if (action === "GetStatus") return { result: { ...state } };
      if (action === "Open") Object.assign(state, { state: "open", current_pos: 100 });
      else if (action === "Close") Object.assign(state, { state: "closed", current_pos: 0 });
      else if (action === "Stop") Object.assign(state, { state: "stopped" });
      else if (action === "GoToPosition") {
        if (typeof params.pos !== "number")
          return { error: { code: -103, message: "Missing required argument 'pos'!" } };
        Object.assign(state, { state: "stopped", current_pos: params.pos });
      } else return { error: { code: 404, message: `No handler for ${method}` } };
      state.source = "rpc";
      this.changed(`cover:${id}`, { id, state: state.state, current_pos: state.current_pos, source: "rpc" });
      return { result: null };
    }
    return { error: { code: 404, message: `No handler for ${method}` } };
  }

  private changed(component: string, status: unknown): void {
    for (const listener of this.listeners) listener(component, status);
  }
}

export class FakeShellyHttp {
  private readonly nonce = randomBytes(4).toString("hex");

  private constructor(
    readonly server: FakeHttpServer,
    readonly device: ShellyDeviceModel,
    private readonly password: string | undefined,
  ) {}

  static async start(device: ShellyDeviceModel, options: { password?: string } = {}): Promise<FakeShellyHttp> {
    const holder: { fake?: FakeShellyHttp } = {};
    const server = await FakeHttpServer.start((request, response) => {
      const fake = holder.fake;
      if (!fake) return;
      if (fake.password) {
        const ok = verifyDigest(request.headers.authorization, {
          method: request.method,
          realm: device.id,
          nonce: fake.nonce,
          username: "admin",
          password: fake.password,
        });
        if (!ok) {
          sendJson(
            response,
            401,
            { code: 401, message: "Unauthorized" },
            {
              "www-authenticate": `Digest qop="auth", realm="${device.id}", nonce="${fake.nonce}", algorithm=SHA-256`,
            },
          );
          return;
        }
      }
      const match = /^\/rpc\/([A-Za-z]+\.[A-Za-z]+)$/.exec(request.path);
      if (!match?.[1]) {
        sendJson(response, 404, { code: 404, message: "Not found" });
        return;
      }
      const params = { ...Object.fromEntries(request.query), ...((request.json as Record<string, unknown>) ?? {}) };
      const answer = device.handle(match[1], params);
      if ("error" in answer) sendJson(response, answer.error.code === 404 ? 404 : 500, answer.error);
      else sendJson(response, 200, answer.result);
    });
    holder.fake = new FakeShellyHttp(server, device, options.password);
    return holder.fake;
  }

  get url(): string {
    return this.server.url;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

export class FakeShellyMqtt {
  private constructor(
    private readonly client: mqtt.MqttClient,
    readonly device: ShellyDeviceModel,
    readonly prefix: string,
  ) {}

  /** Connects the device to `brokerUrl` under topic prefix `prefix`. */
  static async start(brokerUrl: string, prefix: string, device: ShellyDeviceModel): Promise<FakeShellyMqtt> {
    const client = await mqtt.connectAsync(brokerUrl, { clientId: `${device.id}-${randomBytes(3).toString("hex")}` });
    const fake = new FakeShellyMqtt(client, device, prefix);
    client.on("message", (_topic, raw) => {
      let request: { id?: unknown; src?: unknown; method?: unknown; params?: unknown };
      try {
        request = JSON.parse(raw.toString());
      } catch {
        return;
      }
      if (typeof request.src !== "string" || typeof request.method !== "string") return;
      const answer = device.handle(request.method, (request.params as Record<string, unknown>) ?? {});
      client.publish(
        `${request.src}/rpc`,
        JSON.stringify({ id: request.id, src: device.id, dst: request.src, ...answer }),
      );
    });
    device.onChange((component, status) => {
      client.publish(
        `${prefix}/events/rpc`,
        JSON.stringify({
          src: device.id,
          dst: `${prefix}/events`,
          method: "NotifyStatus",
          params: { ts: Date.now() / 1000, [component]: status },
        }),
      );
    });
    await client.subscribeAsync(`${prefix}/rpc`);
    return fake;
  }

  close(): Promise<void> {
    return this.client.endAsync();
  }
}
