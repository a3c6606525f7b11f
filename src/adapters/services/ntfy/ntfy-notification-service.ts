/**
 * Notifications through ntfy (https://docs.ntfy.sh/publish/): one JSON POST to the
 * server's root URL per message, with the topic in the body. Named channels map to
 * topics, so `notify({ channel: "alarm", … })` reaches the phones subscribed to that topic.
 */
import type {
  NotificationAction,
  NotificationOptions,
  NotificationResult,
  NotificationService,
} from "../../../domain/automation/notification.js";
import type { ServiceErrorCode } from "../../../domain/automation/service-errors.js";
import type { HttpClient, HttpResponse } from "../../../ports/http-client.js";
import type { Logger } from "../../../ports/logger.js";
import type { ServiceHealthReport, ServiceHealthReporter } from "../../../ports/service-health.js";
import { describeError, HealthTracker, masked } from "../health-tracker.js";

export interface NtfySettings {
  /** Server base URL, `https://ntfy.sh` or a self-hosted one. */
  url: string;
  /** Topic of the default channel (NTFY_TOPIC); used when `notify()` names no channel. */
  defaultTopic?: string | undefined;
  /** Named channels and their topics (NTFY_CHANNELS). */
  channels?: Record<string, string>;
  /** Access token (`tk_…`); wins over username and password. */
  token?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  /** Extra attempts after a network error or 5xx, with the HTTP client's backoff. Default 2. */
  retries?: number;
  /** Per-attempt timeout in ms. Default 10000. */
  timeoutMs?: number;
  /** Clock for health timestamps. */
  now?: () => Date;
}

/** The name of the channel NTFY_TOPIC feeds. */
export const DEFAULT_CHANNEL = "default";

const PRIORITY_NAMES: Record<string, number> = { min: 1, low: 2, default: 3, high: 4, urgent: 5, max: 5 };

/** ntfy's priority number for `priority`, or a problem message. */
export function ntfyPriority(priority: NotificationOptions["priority"]): number | string | undefined {
  if (priority === undefined) return undefined;
  if (typeof priority === "number") {
    return Number.isInteger(priority) && priority >= 1 && priority <= 5
      ? priority
      : `priority ${priority} is not 1 to 5`;
  }
  const named = PRIORITY_NAMES[String(priority).trim().toLowerCase()];
  if (named !== undefined) return named;
  if (/^[1-5]$/.test(String(priority).trim())) return Number(priority);
  return `priority "${priority}" is not 1–5 or one of min, low, default, high, urgent`;
}

/** The JSON body ntfy's publish-as-JSON endpoint takes. */
interface NtfyMessage {
  topic: string;
  message: string;
  title?: string;
  priority?: number;
  tags?: string[];
  click?: string;
  icon?: string;
  actions?: NotificationAction[];
  markdown?: boolean;
  /** ntfy's sequence ID: messages with the same one update one notification on the phones. */
  sequence_id?: string;
}

/** What ntfy accepts as a sequence ID (the same alphabet and length as a topic). */
const SEQUENCE_ID = /^[-_A-Za-z0-9]{1,64}$/;

class SendProblem extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The `notifications` service on ntfy. `send()` never rejects: a failure (after the
 * HTTP client's retries for network errors and 5xx) is logged and returned as
 * `{ ok: false, code, error }`.
 */
export class NtfyNotificationService implements NotificationService, ServiceHealthReporter {
  readonly serviceKey = "notifications";
  private readonly health: HealthTracker;
  private readonly base: string;
  private readonly channels: Record<string, string>;

  constructor(
    private readonly http: HttpClient,
    private readonly logger: Logger,
    private readonly settings: NtfySettings,
  ) {
    this.health = new HealthTracker(settings.now);
    this.base = settings.url.replace(/\/+$/, "");
    this.channels = {
      ...(settings.defaultTopic ? { [DEFAULT_CHANNEL]: settings.defaultTopic } : {}),
      ...settings.channels,
    };
  }

  /** Channel names this service knows. */
  channelNames(): string[] {
    return Object.keys(this.channels);
  }

  async send(options: NotificationOptions): Promise<NotificationResult> {
    const channel = options?.channel ?? DEFAULT_CHANNEL;
    try {
      const message = this.buildMessage(options, channel);
      const response = await this.publish(message);
      const id =
        typeof (response.data as { id?: unknown })?.id === "string" ? (response.data as { id: string }).id : undefined;
      this.health.succeeded();
      this.logger.debug("Notification sent", { channel, topic: message.topic, id });
      return { ok: true, channel, ...(id ? { id } : {}) };
    } catch (error) {
      const code: ServiceErrorCode = error instanceof SendProblem ? error.code : "SERVICE_UNREACHABLE";
      const reason = describeError(error);
      if (code !== "SERVICE_INVALID_ARGUMENT") this.health.failed(reason, code !== "SERVICE_UNREACHABLE");
      this.logger.error("Notification not sent", { channel, code, error: reason, title: options?.title });
      return { ok: false, channel, code, error: reason };
    }
  }

  private buildMessage(options: NotificationOptions, channel: string): NtfyMessage {
    if (typeof options?.message !== "string" || options.message === "") {
      throw new SendProblem("SERVICE_INVALID_ARGUMENT", "a notification needs a message");
    }
    const topic = this.channels[channel];
    if (!topic) {
      const known = this.channelNames();
      throw new SendProblem(
        "SERVICE_INVALID_ARGUMENT",
        `no ntfy channel "${channel}" (configured: ${known.length ? known.join(", ") : "none"}; set NTFY_TOPIC or NTFY_CHANNELS)`,
      );
    }
    const priority = ntfyPriority(options.priority);
    if (typeof priority === "string") throw new SendProblem("SERVICE_INVALID_ARGUMENT", priority);
    if (options.actions && options.actions.length > 3) {
      throw new SendProblem("SERVICE_INVALID_ARGUMENT", "ntfy shows at most 3 action buttons");
    }
    if (options.idempotencyKey !== undefined && !SEQUENCE_ID.test(options.idempotencyKey)) {
      throw new SendProblem(
        "SERVICE_INVALID_ARGUMENT",
        "idempotencyKey must be 1 to 64 letters, digits, - or _ (it is ntfy's sequence ID)",
      );
    }
    return {
      topic,
      message: options.message,
      ...(options.title ? { title: options.title } : {}),
      ...(priority !== undefined ? { priority } : {}),
      ...(options.tags?.length ? { tags: options.tags } : {}),
      ...(options.click ? { click: options.click } : {}),
      ...(options.icon ? { icon: options.icon } : {}),
      ...(options.actions?.length ? { actions: options.actions } : {}),
      ...(options.markdown ? { markdown: true } : {}),
      ...(options.idempotencyKey ? { sequence_id: options.idempotencyKey } : {}),
    };
  }

  private async publish(message: NtfyMessage): Promise<HttpResponse> {
    let response: HttpResponse;
    try {
      response = await this.http.request(this.base, {
        method: "POST",
        body: message,
        headers: this.authHeaders(),
        retries: this.settings.retries ?? 2,
        timeout: this.settings.timeoutMs ?? 10_000,
      });
    } catch (error) {
      throw new SendProblem("SERVICE_UNREACHABLE", `ntfy server ${this.base} unreachable: ${describeError(error)}`);
    }
    if (response.ok) return response;
    const detail = (response.data as { error?: unknown })?.error;
    const why = `ntfy answered ${response.status}${typeof detail === "string" ? ` (${detail})` : ""}`;
    if (response.status === 401 || response.status === 403) {
      throw new SendProblem("SERVICE_AUTH_FAILED", `${why}: check NTFY_TOKEN or NTFY_USERNAME/NTFY_PASSWORD`);
    }
    throw new SendProblem("SERVICE_REQUEST_FAILED", why);
  }

  private authHeaders(): Record<string, string> {
    const { token, username, password } = this.settings;
    if (token) return { authorization: `Bearer ${token}` };
    if (username && password)
      return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` };
    return {};
  }

  serviceHealth(): ServiceHealthReport {
    return {
      provider: "ntfy",
      configured: Object.keys(this.channels).length > 0,
      ...this.health.snapshot(),
      config: {
        url: this.base,
        channels: { ...this.channels },
        token: masked(this.settings.token),
        username: this.settings.username ?? null,
        password: masked(this.settings.password),
      },
    };
  }
}
