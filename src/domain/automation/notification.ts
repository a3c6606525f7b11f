/** ntfy's priority names, lowest to highest (1–5). */
export type NotificationPriorityName = "min" | "low" | "default" | "high" | "urgent";

/** An action button under a notification: open a URL, or have the phone send an HTTP request. */
export type NotificationAction =
  | { action: "view"; label: string; url: string; clear?: boolean }
  | {
      action: "http";
      label: string;
      url: string;
      method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
      headers?: Record<string, string>;
      body?: string;
      clear?: boolean;
    };

/** What an automation can ask a notification service to send. */
export interface NotificationOptions {
  title?: string;
  message: string;
  /** 1 (min) to 5 (urgent), or the names min, low, default, high, urgent. */
  priority?: number | NotificationPriorityName | string;
  /** Tags; with ntfy, emoji short codes (`warning`, `snowflake`) show as icons. */
  tags?: string[];
  /** A named channel from configuration (`alarm`), mapped to its topic; default channel when omitted. */
  channel?: string;
  /** URL opened when the notification is tapped. */
  click?: string;
  /** URL of an icon image shown with the notification. */
  icon?: string;
  /** Up to three action buttons. */
  actions?: NotificationAction[];
  /** Render the message as Markdown (ntfy web app and desktop). */
  markdown?: boolean;
  /**
   * The same key on every attempt to send one notification (a retry after a crash): the
   * service shows a repeat as that notification instead of a second one where it can. ntfy
   * sends it as the sequence ID (`sequence_id`, ntfy 2.16 and later; older servers ignore it).
   * Letters, digits, `-` and `_`, at most 64 characters.
   */
  idempotencyKey?: string;
}

/**
 * How a send ended. A failed send is never thrown into the automation: it is logged and
 * returned with `ok: false`, so `await this.notify(…)` can check and fall back.
 */
export type NotificationResult =
  | { ok: true; channel: string; id?: string }
  | { ok: false; channel: string; error: string; code: string };

/** A push-notification service, registered under the `notifications` service key. */
export interface NotificationService {
  /** Custom services may return nothing; Hearth's ntfy service returns a {@link NotificationResult}. */
  // biome-ignore lint/suspicious/noConfusingVoidType: custom services written as `async send(): Promise<void>` must stay valid.
  send(options: NotificationOptions): Promise<NotificationResult | void>;
}
