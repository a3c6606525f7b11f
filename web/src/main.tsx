import { render } from "preact";
import { whenNotMember, whenSignedOut } from "./api.js";
import { App } from "./app.js";
import { boot, flushPending, membershipLost, signedOut } from "./data.js";
import { language } from "./i18n/index.js";
import { followLive } from "./live.js";
import { setState, subscribe } from "./store.js";
import "./styles.css";

document.documentElement.lang = language;

window.addEventListener("online", () => {
  setState({ online: true });
  // Writes queued offline go out on any screen, not only when the home screen is open.
  void flushPending();
});
window.addEventListener("offline", () => setState({ online: false }));
whenSignedOut(signedOut);
whenNotMember(() => void membershipLost());
subscribe(followLive);

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
