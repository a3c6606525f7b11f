/** What an automation can ask a notification service to send. */
export interface NotificationOptions {
  title?: string;
  message: string;
  /** Service-specific priority (e.g. ntfy 1–5, "high"). */
  priority?: number | string;
  tags?: string[];
  /** Where to send it, when the service has several destinations (an ntfy topic, say); default: the service's own. */
  channel?: string;
}

/** A push-notification service, registered under the `notifications` service key. */
export interface NotificationService {
  send(options: NotificationOptions): Promise<void>;
}
