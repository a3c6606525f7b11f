/**
 * The service worker: keeps the app shell (page, bundles, icons, manifest) so the app opens
 * without a network. API answers are never cached here: the app keeps its own copy of the
 * last loaded lists and shows them read-only, with a banner, while offline.
 */

// The lists the build bakes in (scripts/build-web.mjs).
declare const __SHELL_FILES__: string[];
declare const __SHELL_VERSION__: string;

// The DOM lib's types, not the WebWorker lib's (one tsconfig for the app and this file).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification;
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ServiceWorkerScope {
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  registration: ServiceWorkerRegistration;
}

const worker = self as unknown as ServiceWorkerScope;
const CACHE = `hearth-shell-${__SHELL_VERSION__}`;

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(__SHELL_FILES__))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith("hearth-shell-") && key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    // Pages: the network first (a new release shows at once), the cached shell when offline.
    event.respondWith(
      fetch(request).catch(async () => (await caches.match("/", { cacheName: CACHE })) ?? Response.error()),
    );
    return;
  }
  // Hashed bundles and icons: the cache first; they never change under one name.
  event.respondWith(caches.match(request, { cacheName: CACHE }).then((cached) => cached ?? fetch(request)));
});

/** What the server pushes (adapters/services/web-push): the text is already in the device's language. */
interface ReminderMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

function reminderOf(data: unknown): ReminderMessage | null {
  if (typeof data !== "object" || data === null) return null;
  const fields = data as Record<string, unknown>;
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : null);
  const title = text("title");
  if (!title) return null;
  // Only a path of this app opens on a tap, whatever the message says.
  const url = text("url") ?? "/";
  return {
    title,
    body: text("body") ?? "",
    url: url.startsWith("/") && !url.startsWith("//") ? url : "/",
    tag: text("tag") ?? "hearth",
  };
}

worker.addEventListener("push", (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json() ?? null;
  } catch {
    // Not JSON: shown as a plain reminder below, never dropped (browsers penalise silent pushes).
    data = { title: "Hearth", body: event.data?.text() ?? "" };
  }
  const reminder = reminderOf(data) ?? { title: "Hearth", body: "", url: "/", tag: "hearth" };
  event.waitUntil(
    worker.registration.showNotification(reminder.title, {
      body: reminder.body,
      tag: reminder.tag,
      data: { url: reminder.url },
      icon: "/icons/icon-192.png",
    }),
  );
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data as { url?: string } | null)?.url ?? "/";
  const target = new URL(path, location.origin).href;
  event.waitUntil(
    worker.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (windows) => {
      // The app already open: bring it forward on the expiring list rather than opening a second one.
      const open = windows.find((client) => new URL(client.url).origin === location.origin);
      if (open) {
        const focused = await open.focus();
        await focused.navigate(target);
        return;
      }
      await worker.clients.openWindow(target);
    }),
  );
});
