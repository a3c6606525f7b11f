/** Server-rendered HTML of the web UI: the login form and the shell the console's script fills in. */

/** The sign-in page's stylesheet and icon. */
export interface LoginAssetUrls {
  css: string;
  icon: string;
}

/** The console's bundle (the web build's status entry), its stylesheet and the icon. */
export interface AppAssetUrls extends LoginAssetUrls {
  js: string;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

function head(title: string, assets: LoginAssetUrls): string {
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
  assets: LoginAssetUrls;
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
  assets: LoginAssetUrls;
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
  assets: AppAssetUrls;
  apiBase: string;
  /** Where the sign-out form posts; null when no login is configured. */
  logoutAction: string | null;
  loginUrl: string | null;
}

/**
 * The console's shell: the script (web/src/status/main.tsx) renders the House pages into #app,
 * reading where the API and the sign-in routes are from its data attributes. The page's
 * language follows the browser (the script sets it); "en" until then.
 */
export function renderAppPage(options: AppPageOptions): string {
  const data = [
    ["api-base", options.apiBase],
    ["icon", options.assets.icon],
    ...(options.loginUrl ? [["login-url", options.loginUrl]] : []),
    ...(options.logoutAction ? [["logout-action", options.logoutAction]] : []),
  ]
    .map(([name, value]) => ` data-${name}="${escapeHtml(value ?? "")}"`)
    .join("");
  return `${head("Hearth", options.assets)}
<body>
<div id="app"${data}><p class="boot">Loading…</p></div>
<script type="module" src="${escapeHtml(options.assets.js)}"></script>
</body>
</html>
`;
}
