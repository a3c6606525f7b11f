/** Server-rendered HTML of the web UI: the login form and the shell the client script fills in. */

export interface AssetUrls {
  css: string;
  js: string;
  icon: string;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

function head(title: string, assets: AssetUrls): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${escapeHtml(assets.icon)}" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(assets.css)}">
</head>`;
}

export interface LoginPageOptions {
  action: string;
  assets: AssetUrls;
  error?: string;
}

/** The access-token form; the same page shows a failed attempt's error. */
export function renderLoginPage(options: LoginPageOptions): string {
  const error = options.error
    ? `<p class="form-error" role="alert" id="login-error">${escapeHtml(options.error)}</p>`
    : "";
  return `${head("Sign in · Hearth", options.assets)}
<body class="login-body">
<main class="login-card">
  <h1 class="brand"><img src="${escapeHtml(options.assets.icon)}" alt="" width="28" height="28"> Hearth</h1>
  <p class="muted">Enter the access token (HTTP_TOKEN) to open the engine status page.</p>
  <form method="post" action="${escapeHtml(options.action)}" class="login-form">
    <label for="token">Access token</label>
    <input id="token" name="token" type="password" autocomplete="current-password" required autofocus${
      options.error ? ' aria-invalid="true" aria-describedby="login-error"' : ""
    }>
    ${error}
    <button type="submit" class="primary">Sign in</button>
  </form>
</main>
</body>
</html>
`;
}

export interface MessagePageOptions {
  title: string;
  message: string;
  link: { href: string; label: string };
  assets: AssetUrls;
}

/** A short notice page (too many login attempts). */
export function renderMessagePage(options: MessagePageOptions): string {
  return `${head(`${options.title} · Hearth`, options.assets)}
<body class="login-body">
<main class="login-card">
  <h1 class="brand"><img src="${escapeHtml(options.assets.icon)}" alt="" width="28" height="28"> Hearth</h1>
  <h2>${escapeHtml(options.title)}</h2>
  <p role="alert">${escapeHtml(options.message)}</p>
  <p><a href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.label)}</a></p>
</main>
</body>
</html>
`;
}

export interface AppPageOptions {
  assets: AssetUrls;
  apiBase: string;
  /** Where the sign-out form posts; null when no login is configured. */
  logoutAction: string | null;
  loginUrl: string | null;
}

const SECTIONS = [
  ["overview", "Overview"],
  ["automations", "Automations"],
  ["devices", "Devices"],
  ["state", "State"],
  ["logs", "Logs"],
] as const;

/** The single-page shell; app.js renders each section from the debug API. */
export function renderAppPage(options: AppPageOptions): string {
  const tabs = SECTIONS.map(
    ([id, label], index) =>
      `<a href="#${id}" role="tab" id="tab-${id}" aria-controls="section-${id}" aria-selected="${index === 0}" tabindex="${index === 0 ? 0 : -1}" class="tab">${label}</a>`,
  ).join("\n      ");
  const sections = SECTIONS.map(
    ([id, label], index) =>
      `<section id="section-${id}" role="tabpanel" aria-labelledby="tab-${id}" class="panel"${index === 0 ? "" : " hidden"}>
    <h2 class="visually-hidden">${label}</h2>
  </section>`,
  ).join("\n  ");
  const logout = options.logoutAction
    ? `<form method="post" action="${escapeHtml(options.logoutAction)}" class="logout"><button type="submit" class="ghost">Sign out</button></form>`
    : "";
  return `${head("Hearth", options.assets)}
<body data-api-base="${escapeHtml(options.apiBase)}"${options.loginUrl ? ` data-login-url="${escapeHtml(options.loginUrl)}"` : ""}>
<header class="topbar">
  <div class="topbar-row">
    <h1 class="brand"><img src="${escapeHtml(options.assets.icon)}" alt="" width="24" height="24"> Hearth</h1>
    <span id="live-indicator" class="live" title="Live updates">connecting…</span>
    ${logout}
  </div>
  <nav aria-label="Sections">
    <div role="tablist" class="tabs">
      ${tabs}
    </div>
  </nav>
</header>
<div id="banner" class="banner" role="status" aria-live="assertive" hidden></div>
<main id="main">
  ${sections}
</main>
<script type="module" src="${escapeHtml(options.assets.js)}"></script>
</body>
</html>
`;
}
