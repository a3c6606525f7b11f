/**
 * The engine console's entry (the second entry of the web build, served by the engine at
 * /status): the same House pages, styles and catalogues as the family app, against the
 * engine's own /api. The server-rendered shell names the API and the sign-in routes on #app.
 */
import { render } from "preact";
import { language } from "../i18n/index.js";
import { setState } from "../store.js";
import { StatusApp } from "./status-app.js";
import { statusConnection } from "./status-connection.js";
import "../styles.css";

document.documentElement.lang = language;

window.addEventListener("online", () => setState({ online: true }));
window.addEventListener("offline", () => setState({ online: false }));

const root = document.getElementById("app");
if (root) {
  const { apiBase, loginUrl, logoutAction, icon } = root.dataset;
  const connection = statusConnection({ apiBase: apiBase ?? "/api", loginUrl: loginUrl ?? null });
  root.textContent = "";
  render(<StatusApp connection={connection} logoutAction={logoutAction ?? null} icon={icon ?? null} />, root);
}
