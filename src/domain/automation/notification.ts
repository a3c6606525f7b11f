/** What an automation can ask a notification service to send. */
export interface NotificationOptions {
  title?: string;
  message: string;
  /** Service-specific priority (e.g. ntfy 1–5, "high"). */
  priority?: number | string;
  tags?: string[];
}

/** A push-notification service, registered under the `notifications` service key. */
export interface NotificationService {
  send(options: NotificationOptions): Promise<void>;
}
