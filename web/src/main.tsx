import { render } from "preact";
import { whenNotMember, whenSignedOut } from "./api.js";
import { App } from "./app.js";
import { boot, membershipLost, signedOut } from "./data.js";
import { language } from "./i18n/index.js";
import { followLive } from "./live.js";
import { watchConnection } from "./reconnect.js";
import { subscribe } from "./store.js";
import "./styles.css";

document.documentElement.lang = language;

watchConnection();
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
