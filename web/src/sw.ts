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
interface ServiceWorkerScope {
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
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
