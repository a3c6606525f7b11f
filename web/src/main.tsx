import { render } from "preact";
import { ApiError, refreshSession, sessionUser, whenSignedOut } from "./api.js";
import { App } from "./app.js";
import { signedIn, signedOut, startOffline } from "./data.js";
import { language } from "./i18n/index.js";
import { setState } from "./store.js";
import "./styles.css";

document.documentElement.lang = language;

window.addEventListener("online", () => setState({ online: true }));
window.addEventListener("offline", () => setState({ online: false }));
whenSignedOut(signedOut);

/** Resumes the session from the refresh cookie, or starts offline from the stored copy. */
async function boot(): Promise<void> {
  try {
    if ((await refreshSession()) && sessionUser()) await signedIn(sessionUser()!);
    else setState({ user: null });
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) startOffline();
    else setState({ user: null, bootError: error });
  }
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // No service worker (private mode, http on a LAN name): the app works, only not offline.
  });
}

const root = document.getElementById("app");
if (root) {
  root.textContent = "";
  render(<App />, root);
}
void boot();
