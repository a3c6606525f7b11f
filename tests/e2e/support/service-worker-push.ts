import type { BrowserContext, CDPSession, Page } from "playwright-core";

/**
 * `promise`, or a failure naming what did not happen within `ms`, with `context()` (Hearth's last
 * log lines, say) appended.
 */
export async function within<T>(ms: number, what: string, promise: Promise<T>, context?: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const more = context?.();
      reject(new Error(`waited ${ms / 1000} s for ${what}${more ? `; Hearth's log:\n${more}` : ""}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A notification as the app's service worker shows it. */
export interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  url: string;
}

type Registrations = { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] };

/** The id DevTools knows the origin's service worker registration by, from the registrations it reports. */
async function registrationOf(cdp: CDPSession, origin: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", (event: Registrations) => {
      const registration = event.registrations.find((each) => each.scopeURL === `${origin}/` && !each.isDeleted);
      if (registration) resolve(registration.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  try {
    return await within(10_000, "DevTools to report the service worker's registration", found);
  } catch {
    // Enabling reports the registrations that exist then; one made a moment earlier can be missed.
    // Asking again reports them anew.
    await cdp.send("ServiceWorker.disable");
    await cdp.send("ServiceWorker.enable");
    return within(20_000, "DevTools to report the service worker's registration (asked twice)", found);
  }
}

/**
 * Hands `message` to the app's real service worker as a push event, as the browser does with a
 * push service's message (DevTools' ServiceWorker.deliverPushMessage: headless Chromium reaches no
 * real push service), and returns the notifications the worker then shows.
 */
export async function pushToServiceWorker(
  context: BrowserContext,
  page: Page,
  origin: string,
  message: unknown,
): Promise<ShownNotification[]> {
  const cdp = await context.newCDPSession(page);
  const registrationId = await registrationOf(cdp, origin);
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(message) });
  // Polled frame by frame: getNotifications is asynchronous, which waitForFunction's predicates cannot be.
  const shown = page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    for (;;) {
      const notifications = await registration.getNotifications();
      if (notifications.length > 0)
        return notifications.map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          url: (n.data as { url: string }).url,
        }));
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });
  return within(30_000, "the service worker to show the notification", shown);
}
